/// A database of either store (``SQLiteDatabase``, ``PostgresDatabase``), as the repositories use
/// it: write transactions, read snapshots and single-statement reads.
///
/// **Every write names its isolation** (``SQLIsolation``), and a name means the same on every
/// type: `write { }` is ``SQLIsolation/serializable`` whether the database is reached through
/// this protocol or as the concrete type. SQLite has one writer (`BEGIN IMMEDIATE`), so its
/// writes run alone whatever they name. On Postgres a `SERIALIZABLE` write runs again when it
/// loses to another (a serialization failure or a deadlock, see
/// ``PostgresDatabase/write(isolation:_:)``), so a read-then-write in one transaction is as safe
/// on a cluster of servers as on one file; the cost is a retried transaction under contention.
/// The hot writes whose every statement is conditional or locks what it decides on (checkout, a
/// payment's apply, a cart line) name ``SQLIsolation/readCommitted`` instead and are never
/// retried for a conflict. Either way the body may run more than once, so it must only touch
/// its connection.
///
/// **Waiting never blocks the caller** (architecture §7). Each call waits for its turn at a
/// connection suspended — no thread is held while it queues, and a task cancelled while it
/// queues stops at once with `CancellationError` — then runs its synchronous body on the
/// database's own threads (``storageExecutor``), one per connection it can lend, so the
/// caller's thread is free while SQLite or the network answers. A task that already prefers
/// that executor (KeyCatAPI's handlers, KeyCat's async use cases) makes no hop at all.
package protocol SQLDatabase: Sendable {
    associatedtype Connection: SQLConnection

    /// The threads the bodies run on.
    var storageExecutor: any TaskExecutor { get }

    /// Runs `body` in a write transaction at `isolation`, rolled back if it throws; nested calls
    /// on the connection are savepoints (which keep the outer transaction's isolation).
    @discardableResult
    func write<Result: Sendable>(isolation: SQLIsolation, _ body: (Connection) throws -> Result) async throws -> Result

    /// Runs `body` in a read transaction: its queries see one snapshot.
    @discardableResult
    func read<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result

    /// Runs `body`, which only reads, without an explicit transaction: each statement is its own
    /// snapshot.
    @discardableResult
    func readStatement<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result

    /// Runs `body` on a connection that may write, outside any transaction, waiting for it
    /// suspended: for work that manages its own transactions, such as a setting that only
    /// changes between them (SQLite's writer; a pooled Postgres connection). Run once.
    @discardableResult
    func withConnection<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result

    /// Runs `body` on a connection that may write, outside any transaction, on the calling
    /// thread and waiting there for the connection: for opening and migrating, before the
    /// database serves anyone (SQLite's writer; a pooled Postgres connection).
    @discardableResult
    func blockingWithConnection<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result

    /// The signal fired when a write that announced itself (``SQLConnection/announceOnCommit()``)
    /// commits — through this database, and from the first call on, through any other process
    /// or server on the same file or schema.
    func watchCommits() -> ChangeSignal

    /// Closes every connection; calls after it fail.
    func close()
}

extension SQLDatabase {
    /// A ``SQLIsolation/serializable`` write: one that may read, decide, then write.
    @discardableResult
    package func write<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
        try await write(isolation: .serializable, body)
    }
}

extension SQLiteDatabase: SQLDatabase {
    package var storageExecutor: any TaskExecutor { threads }

    @discardableResult
    package func blockingWithConnection<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try withWriter(body)
    }

    /// The writer, outside any transaction, in its turn among the writes.
    @discardableResult
    package func withConnection<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) async throws -> Result {
        try await writerTurns.withPermit(on: threads) { try withWriter(body) }
    }

    /// A write transaction: SQLite's one writer runs it alone, as strict as any `isolation`.
    @discardableResult
    package func write<Result: Sendable>(
        isolation: SQLIsolation, _ body: (SQLiteConnection) throws -> Result
    ) async throws -> Result {
        try await writerTurns.withPermit(on: threads) { try blockingWrite(body) }
    }

    @discardableResult
    package func read<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) async throws -> Result {
        try await readerTurns.withPermit(on: threads) { try blockingRead(body) }
    }

    @inlinable
    @discardableResult
    package func readStatement<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) async throws -> Result {
        try await readerTurns.withPermit(on: threads) { try blockingReadStatement(body) }
    }
}

extension PostgresDatabase: SQLDatabase {}
