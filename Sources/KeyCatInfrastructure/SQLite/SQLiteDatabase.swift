import Synchronization

/// A database file shared by many tasks: one writer connection and a small pool of readers.
///
/// Concurrency in one sentence: every connection lives inside its own `Mutex`, so a connection
/// is only ever touched by the one thread holding its lock; writes queue on the writer's lock
/// (and, across processes, on SQLite's file lock with a busy timeout), while reads take any free
/// reader and, in WAL mode, run beside the writer without waiting for it.
package final class SQLiteDatabase: Sendable {
    /// The path the database was opened at.
    package let path: String
    /// How the connections were opened (a backup opens its source connection the same way).
    let configuration: SQLiteConfiguration
    private let writer: LockedConnection
    private let readers: [LockedConnection]
    private let nextReader = Atomic<Int>(0)

    /// Opens (and with `createIfMissing`, creates) the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened, is not a database, or a pragma
    ///   fails. Nothing is left open on failure.
    package init(path: String, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        let writerConnection = try SQLiteConnection(path: path, configuration: configuration)
        var readerConnections: [LockedConnection] = []
        // In-memory databases are private to their connection: readers would see nothing.
        if !Self.isInMemory(path) {
            for _ in 0..<max(0, configuration.readerCount) {
                let reader = try SQLiteConnection(path: path, configuration: configuration, readOnly: true)
                readerConnections.append(LockedConnection(reader))
            }
        }
        self.writer = LockedConnection(writerConnection)
        self.readers = readerConnections
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE … COMMIT`), rolled back if it throws.
    /// Calls from other tasks wait their turn.
    @discardableResult
    package func write<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try writer.withLock { connection throws -> Result in
            try connection.transaction(body)
        }
    }

    /// Runs `body` on the writer connection outside any transaction: for pragmas, `VACUUM`,
    /// backups and migrations that manage their own transactions.
    @discardableResult
    package func withWriter<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try writer.withLock { connection throws -> Result in try body(connection) }
    }

    /// Runs `body` in a read transaction on a reader connection, so all its queries see one
    /// consistent snapshot. Readers never block the writer, nor it them.
    @discardableResult
    package func read<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try withReader { connection in try connection.readTransaction(body) }
    }

    /// Runs `body` on a reader connection without an explicit transaction: each statement it
    /// issues is its own snapshot. For single statements, or statements whose results stay
    /// correct across commits in between; the `BEGIN`/`COMMIT` pair would cost as much as a
    /// primary-key lookup.
    @discardableResult
    package func readStatement<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try withReader(body)
    }

    private func withReader<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        guard !readers.isEmpty else {
            return try writer.withLock(body)
        }
        let start = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        // Take the first reader that is free; if all are busy, wait for the one we started at.
        for offset in 0..<readers.count {
            let index = (start &+ offset) % readers.count
            let outcome: Swift.Result<Result, any Error>? = readers[index].withLockIfAvailable { connection in
                Swift.Result { try body(connection) }
            }
            if let outcome { return try outcome.get() }
        }
        return try readers[abs(start % readers.count)].withLock(body)
    }

    /// Whether `path` names a private in-memory database rather than a file.
    static func isInMemory(_ path: String) -> Bool { path == ":memory:" || path.isEmpty }

    /// Closes every connection. Using the database afterwards fails with `SQLITE_MISUSE`.
    /// Closing twice is harmless.
    package func close() {
        try? writer.withLock { $0.close() }
        for reader in readers { try? reader.withLock { $0.close() } }
    }
}

/// A connection behind its own lock. A class because `Mutex` cannot be copied into an array.
private final class LockedConnection: Sendable {
    private let mutex: Mutex<SQLiteConnection>

    init(_ connection: consuming sending SQLiteConnection) { mutex = Mutex(connection) }

    func withLock<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try mutex.withLock { connection throws -> Result in try body(connection) }
    }

    func withLockIfAvailable<Result: Sendable>(_ body: (SQLiteConnection) -> Result) -> Result? {
        mutex.withLockIfAvailable { connection -> Result in body(connection) }
    }
}
