internal import CSQLite
import Foundation

/// One SQLite connection (`sqlite3 *`), owned by this object and closed in `deinit`.
///
/// Not `Sendable`: a connection is used by one thread at a time. ``SQLiteDatabase`` shares
/// connections between tasks by handing each out under a lock.
///
/// Statements run through ``run(_:_:)``, ``query(_:_:_:)`` and friends are prepared once and
/// cached by their SQL text (``SQLStatementKey``) for the life of the connection, so a hot path
/// never prepares.
@usableFromInline
package final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [SQLStatementKey: SQLiteStatement] = [:]
    /// How many transactions and savepoints are open (``SQLTransactionSteps``).
    package var transactionDepth = 0
    /// Whether the write transaction in progress asked to be announced when it commits
    /// (``announceOnCommit()``).
    package var announcesCommit = false
    /// The file this connection opened.
    package let path: String

    /// Opens the database at `path` and applies `configuration`'s pragmas.
    ///
    /// A failed open never leaks the handle, and a file that is not a SQLite database is
    /// reported (`SQLITE_NOTADB`) before anything is written to it.
    ///
    /// With `configuration.readOnly` the file is opened `SQLITE_OPEN_READONLY` and its journal
    /// mode is left alone. Reading a WAL database needs its `-shm` file: when the `-shm` and
    /// `-wal` exist (another process has it open) SQLite reads them even if they and the
    /// directory are read-only; when neither exists and the directory is read-only, SQLite
    /// cannot create the `-shm` and fails with `SQLITE_READONLY_CANTINIT`. Then, and only when
    /// there is no `-wal` (so every commit is in the main file), the file is reopened
    /// `immutable=1` (<https://sqlite.org/uri.html#uriimmutable>): read without locks, which is
    /// safe because nobody can write it without creating the `-wal` in that directory.
    ///
    /// - Parameter readOnly: open for queries only (`PRAGMA query_only`), for the reader pool.
    package init(path: String, configuration: SQLiteConfiguration, readOnly: Bool = false) throws {
        self.path = path
        let queryOnly = readOnly || configuration.readOnly
        var flags = (configuration.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if configuration.createIfMissing && !queryOnly { flags |= SQLITE_OPEN_CREATE }
        handle = try Self.openHandle(path, flags: flags, configuration: configuration)
        do {
            // Reading the schema first reports a non-database file before any pragma writes.
            var readable: SQLiteError?
            do { try execute("SELECT count(*) FROM sqlite_schema") } catch { readable = error }
            if let failure = readable {
                guard configuration.readOnly, Self.mayReadImmutable(path, after: failure) else { throw failure }
                close()
                handle = try Self.openHandle(Self.immutableURI(path), flags: flags | SQLITE_OPEN_URI,
                                             configuration: configuration)
                try execute("SELECT count(*) FROM sqlite_schema")
            }
            if queryOnly {
                try execute("PRAGMA query_only = ON")
                Self.stopReadsOfCancelledTasks(handle)
            } else {
                let mode = try queryOne("PRAGMA journal_mode = WAL") { $0.string(0) }
                if mode?.lowercased() != "wal" && path != ":memory:" && !path.isEmpty {
                    throw SQLiteError(
                        extendedCode: SQLITE_ERROR,
                        message: "could not switch to WAL journal mode (got \(mode ?? "nothing"))")
                }
            }
            try execute("""
                PRAGMA synchronous = \(configuration.synchronous.rawValue);
                PRAGMA foreign_keys = ON;
                PRAGMA cache_size = -\(configuration.cacheSizeKiB);
                PRAGMA temp_store = MEMORY;
                """)
        } catch {
            close()
            throw error
        }
    }

    /// Opens a handle through the configured VFS with the busy timeout and extended codes set,
    /// or throws without leaking it.
    private static func openHandle(_ path: String, flags: Int32, configuration: SQLiteConfiguration) throws(SQLiteError) -> OpaquePointer {
        _ = processSettings
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, configuration.vfsName)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(code: code, connection: connection)
            sqlite3_close_v2(connection)  // sqlite3_open_v2 allocates a handle even when it fails
            throw error
        }
        sqlite3_busy_timeout(connection, configuration.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(connection, 1)
        _ = keycat_sqlite3_enable_defensive(connection)
        return connection
    }

    /// SQLite's settings for the whole process, made once before its first connection opens:
    /// memory statistics off, so an allocation inside SQLite takes no global lock (one in twenty
    /// of a catalog build's samples was spent locking and unlocking it). KeyCat reads none of
    /// them. If the process had started SQLite before (a host that opened a database first),
    /// they stay on.
    private static let processSettings: Void = { _ = keycat_sqlite3_disable_memory_statistics() }()

    /// How many virtual-machine steps a read takes between two looks at its task's cancellation:
    /// a few thousand steps take well under a millisecond, and a page of 20 products fits in one
    /// interval, so the hot reads pay nothing.
    static let cancellationCheckInterval: Int32 = 10_000

    /// Makes a statement on this (query-only) connection stop with `SQLITE_INTERRUPT` when the
    /// task it runs for is cancelled: SQLite calls the progress handler every
    /// ``cancellationCheckInterval`` steps, on the thread running the statement, so the handler
    /// asks that thread's own task and can never stop another task's statement. (The alternative,
    /// `sqlite3_interrupt` from a cancellation handler on another thread, can land after the
    /// statement ended and the connection passed to someone else.) A read stopped this way has
    /// changed nothing, and a statement shorter than the interval always runs to its end, so
    /// `COMMIT` and `ROLLBACK` are never stopped. The writer has no handler: a write is short and
    /// runs to its end, like a Postgres `COMMIT`.
    private static func stopReadsOfCancelledTasks(_ handle: OpaquePointer?) {
        sqlite3_progress_handler(handle, cancellationCheckInterval, { _ in
            withUnsafeCurrentTask { $0?.isCancelled ?? false } ? 1 : 0
        }, nil)
    }

    /// Whether a read-only open that failed with `error` may be retried `immutable=1`: SQLite
    /// could not set up the WAL index, and there is no `-wal` whose commits it would miss.
    private static func mayReadImmutable(_ path: String, after error: SQLiteError) -> Bool {
        guard error.primaryCode == SQLITE_READONLY || error.primaryCode == SQLITE_CANTOPEN else { return false }
        return !FileManager.default.fileExists(atPath: path + "-wal")
    }

    /// `file:` URI for `path` with `immutable=1`, escaping what a URI would misread.
    private static func immutableURI(_ path: String) -> String {
        let escaped = path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    deinit { close() }

    /// Closes the connection. Closing twice is harmless.
    package func close() {
        statements.removeAll()  // finalize every statement before the connection goes
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the connection is closed")
        }
        return handle
    }

    /// Runs one or more `;`-separated statements without caching them: for schema and pragmas.
    package func execute(_ sql: String) throws(SQLiteError) {
        let connection = try open()
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
    }

    /// Runs one statement with `arguments` bound to its `?` parameters, ignoring any rows.
    ///
    /// - Returns: the number of rows the statement inserted, updated or deleted.
    @discardableResult
    package func run(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        let connection = try open()
        let statement = try checkOut(sql, arguments)
        defer { checkIn(statement) }
        while try statement.step() {}
        return Int(sqlite3_changes64(connection))
    }

    // The row-reading methods are inlinable so that the compiler specialises them for each row
    // type at the call site (a generic call across modules would copy every decoded value
    // through value witnesses); they reach SQLite only through the non-generic `checkOut`,
    // `step`, `row` and `checkIn`.

    /// Runs a query and decodes every row with `decode`.
    @inlinable
    package func query<Row>(
        _ sql: String, _ arguments: [SQLValue] = [], _ decode: (SQLiteRow) throws -> Row
    ) throws -> [Row] {
        let statement = try checkOut(sql, arguments)
        defer { checkIn(statement) }
        var rows: [Row] = []
        while try statement.step() { rows.append(try decode(statement.row)) }
        return rows
    }

    /// Runs a query and decodes its first row, or returns nil when there is none.
    @inlinable
    package func queryOne<Row>(
        _ sql: String, _ arguments: [SQLValue] = [], _ decode: (SQLiteRow) throws -> Row
    ) throws -> Row? {
        let statement = try checkOut(sql, arguments)
        defer { checkIn(statement) }
        return try statement.step() ? try decode(statement.row) : nil
    }

    /// Runs a query and hands each row to `body`, without collecting them.
    @inlinable
    package func forEach(
        _ sql: String, _ arguments: [SQLValue] = [], _ body: (SQLiteRow) throws -> Void
    ) throws {
        let statement = try checkOut(sql, arguments)
        defer { checkIn(statement) }
        while try statement.step() { try body(statement.row) }
    }

    /// The row id of the last successful `INSERT` on this connection.
    package var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Whether the connection is inside a transaction (SQLite's view, not only ours).
    package var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// The number of statements in the cache, for tests that check reuse.
    package var cachedStatementCount: Int { statements.count }

    /// Borrows the cached statement for `sql` (preparing it on first use) with `arguments`
    /// bound. Every `checkOut` is paired with a ``checkIn(_:)``, which resets it.
    @usableFromInline
    func checkOut(_ sql: String, _ arguments: [SQLValue]) throws -> SQLiteStatement {
        let statement: SQLiteStatement
        let key = SQLStatementKey(sql)
        let cached = statements[key]
        if let cached, !cached.isInUse {
            statement = cached
        } else {
            let connection = try open()
            statement = try SQLiteStatement(sql: sql, connection: connection, persistent: cached == nil)
            if cached == nil { statements[key] = statement }
        }
        statement.isInUse = true
        do {
            try statement.bind(arguments)
        } catch {
            checkIn(statement)
            throw error
        }
        return statement
    }

    /// Returns a statement borrowed with ``checkOut(_:_:)``, reset for its next use.
    @usableFromInline
    func checkIn(_ statement: SQLiteStatement) {
        statement.reset()
        statement.isInUse = false
    }

    // Internal access to the raw handle for the backup API and tests in this module.
    func rawHandle() throws(SQLiteError) -> OpaquePointer { try open() }
}
