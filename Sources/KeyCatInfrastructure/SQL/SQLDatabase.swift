/// A database of either store (``SQLiteDatabase``, ``PostgresDatabase``), as the repositories use
/// it: write transactions, read snapshots and single-statement reads.
///
/// **A write runs alone on both stores.** SQLite has one writer (`BEGIN IMMEDIATE`); on Postgres
/// a write is `SERIALIZABLE` and runs again when it loses to another (a serialization failure or
/// a deadlock, see ``PostgresDatabase/write(isolation:_:)``), so a read-then-write in one
/// transaction is as safe on a cluster of servers as on one file, and the body must only touch
/// its connection. The cost on Postgres is a retried transaction under contention.
package protocol SQLDatabase: Sendable {
    associatedtype Connection: SQLConnection

    /// Runs `body` in a write transaction, rolled back if it throws; nested calls on the
    /// connection are savepoints.
    @discardableResult
    func write<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result

    /// Runs `body` in a read transaction: its queries see one snapshot.
    @discardableResult
    func read<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result

    /// Runs `body`, which only reads, without an explicit transaction: each statement is its own
    /// snapshot.
    @discardableResult
    func readStatement<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result
}

extension SQLiteDatabase: SQLDatabase {}

extension PostgresDatabase: SQLDatabase {
    /// A `SERIALIZABLE` write, retried when it loses a race: the shared repositories' writes,
    /// which assume no other write runs beside them (as on SQLite).
    @_disfavoredOverload @discardableResult
    package func write<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try write(isolation: .serializable, body)
    }
}
