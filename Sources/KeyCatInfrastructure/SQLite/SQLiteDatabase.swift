import Foundation
import Synchronization

/// A database file shared by many tasks: one writer connection and a small pool of readers.
///
/// Concurrency in one sentence: every connection lives behind its own lock, so a connection is
/// only ever touched by the one thread holding its lock; writes queue on the writer's lock
/// (and, across processes, on SQLite's file lock with a busy timeout), while reads take any free
/// reader and, in WAL mode, run beside the writer without waiting for it.
///
/// Two ways in. The async ones (``SQLDatabase``'s `write`, `read`, `readStatement`) wait for
/// their turn at a connection suspended, then run the body on the database's own threads
/// (``storageExecutor``), so no caller's thread ever waits for SQLite. The `blocking…` ones run
/// on the calling thread and wait there: for opening, migrating and backing up, and for the PG
/// simulator's own file.
package final class SQLiteDatabase: Sendable {
    /// The path the database was opened at.
    package let path: String
    /// How the connections were opened (a backup opens its source connection the same way).
    let configuration: SQLiteConfiguration
    private let writer: LockedConnection
    @usableFromInline let readers: [LockedConnection]
    private let nextReader = Atomic<Int>(0)
    /// Answers ``dataVersion()``. Nil for an in-memory database.
    private let versionProbe: DataVersionProbe?
    /// The writer's turns that have ended (commits, and the rest, which only cost a cache a read):
    /// the part of ``dataVersion()`` that moves before a write returns.
    private let writesEnded = Atomic<Int64>(0)
    /// Fired when a write transaction that asked to be announced
    /// (``SQLConnection/announceOnCommit()``) commits through this database, and, once
    /// ``watchCommits()`` has been called, when any process may have committed to the file.
    package let commits = ChangeSignal()
    /// The watcher ``watchCommits()`` started (nil before, for an in-memory database, and once
    /// closed), and whether the database was closed.
    private let watcher = Mutex<(current: SQLiteCommitWatcher?, isClosed: Bool)>((nil, false))
    /// The turns at the writer and at the readers (the writer's when there are none), waited
    /// for suspended; and the threads the async calls run their bodies on, one per connection.
    let writerTurns: AsyncPermits
    @usableFromInline let readerTurns: AsyncPermits
    @usableFromInline let threads: DedicatedThreads

    /// Opens (and with `createIfMissing`, creates) the database at `path`. A file it creates is
    /// owner-only (0600) whatever the umask, see ``OwnerOnlyFile``.
    ///
    /// With `configuration.application`, an existing file is identified first, on a read-only
    /// connection, before anything could write to it (switching to WAL alone rewrites the
    /// header): another application's file is refused untouched, and a write-open stamps the
    /// application's id on a new or not yet stamped file.
    ///
    /// - Throws: ``SQLiteForeignFileError`` for another application's file; ``SQLiteError``
    ///   when the file cannot be opened, is not a database, or a pragma fails. Nothing is left
    ///   open on failure.
    package init(path: String, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        var admission = SQLiteApplication.Admission.empty
        if let application = configuration.application, !Self.isInMemory(path),
           FileManager.default.fileExists(atPath: path) {
            admission = try application.admit(path: path, others: configuration.knownApplications)
        }
        // A new file is created owner-only before SQLite opens it: it will hold keys and
        // password hashes, and SQLite gives its -wal and -shm the same mode.
        if configuration.createIfMissing, !configuration.readOnly, !Self.isInMemory(path),
           !FileManager.default.fileExists(atPath: path) {
            // When it cannot be created, SQLite's own open below reports why, as it always has.
            try? OwnerOnlyFile.create(path, exclusive: false)
        }
        let writerConnection = try SQLiteConnection(path: path, configuration: configuration)
        if let application = configuration.application, !configuration.readOnly, admission != .stamped {
            do {
                try writerConnection.execute("PRAGMA application_id = \(application.id)")
            } catch {
                writerConnection.close()
                throw error
            }
        }
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
        writerTurns = AsyncPermits(1)
        readerTurns = readerConnections.isEmpty ? writerTurns : AsyncPermits(readerConnections.count)
        threads = DedicatedThreads(count: readerConnections.count + 1, name: configuration.threadName)
        versionProbe = Self.isInMemory(path) ? nil : DataVersionProbe(path: path, configuration: configuration)
    }

    /// A number that changes whenever a transaction commits to the file, and stays the same
    /// otherwise:
    /// - a commit through this database's writer moves it before the write returns (a count
    ///   kept here);
    /// - a commit by any other connection, in this process or another, moves it once the file is
    ///   next asked, which is at most ``DataVersionProbe/maximumAge`` (a millisecond) after the
    ///   last time: SQLite's `PRAGMA data_version`, on one connection that never writes
    ///   (https://sqlite.org/pragma.html#pragma_data_version).
    ///
    /// Asking the file costs a read transaction's locks (a few system calls), more than a cached
    /// answer costs to serve; asked at most once a millisecond, a busy server pays it for one
    /// read in hundreds. Nil for an in-memory database.
    ///
    /// A cache that reads this *before* reading the rows it keeps, and files what it read under
    /// that number, never serves rows older than a write through this database that has
    /// returned, nor older than another connection's commit by more than that millisecond: rows
    /// read after the number can only be newer than it, and the commit changes the number.
    package func dataVersion() throws -> Int64? {
        guard let versionProbe else { return nil }
        // Both parts only grow, so their sum changes whenever either does.
        return try versionProbe.version() &+ writesEnded.load(ordering: .acquiring)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE … COMMIT`), rolled back if it throws.
    /// Calls from other threads wait their turn, holding their thread.
    @discardableResult
    package func blockingWrite<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        defer { writesEnded.add(1, ordering: .releasing) }
        let (result, announces) = try writer.withLock { connection throws -> (Result, Bool) in
            (try connection.transaction(body), connection.announcesCommit)
        }
        if announces { commits.fire() }
        return result
    }

    /// ``commits``, fired from now on also when another process may have committed to the file
    /// (``SQLiteCommitWatcher``), not only this database's announced writes.
    package func watchCommits() -> ChangeSignal {
        if !Self.isInMemory(path) {
            watcher.withLock { watcher in
                if watcher.current == nil, !watcher.isClosed { watcher.current = SQLiteCommitWatcher(path: path, signal: commits) }
            }
        }
        return commits
    }

    /// Runs `body` on the writer connection outside any transaction: for pragmas, `VACUUM`,
    /// backups and migrations that manage their own transactions.
    @discardableResult
    package func withWriter<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        defer { writesEnded.add(1, ordering: .releasing) }
        return try writer.withLock { connection throws -> Result in try body(connection) }
    }

    /// Runs `body` in a read transaction on a reader connection, so all its queries see one
    /// consistent snapshot. Readers never block the writer, nor it them.
    @discardableResult
    package func blockingRead<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        let reader = checkOutReader()
        defer { reader.unlock() }
        return try reader.connection.readTransaction(body)
    }

    /// Runs `body` on a reader connection without an explicit transaction: each statement it
    /// issues is its own snapshot. For single statements, or statements whose results stay
    /// correct across commits in between; the `BEGIN`/`COMMIT` pair would cost as much as a
    /// primary-key lookup.
    ///
    /// Inlinable, so the compiler specialises it for each caller's result type: this is the
    /// hot path of every page, product and cart read.
    @inlinable
    @discardableResult
    package func blockingReadStatement<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        let reader = checkOutReader()
        defer { reader.unlock() }
        return try body(reader.connection)
    }

    /// Locks and returns a reader (the writer when there are none): the first free one in a fixed
    /// order, else the next in turn, waiting for it. The caller unlocks it.
    ///
    /// First free, not next in turn: each reader keeps its own page cache, so a light load that
    /// always finds the first reader free reads through one warm cache, and the others warm up
    /// only when reads overlap. Handed out in turn, each reader saw a third of the reads and a
    /// product detail on a 1,000,000-product file read 1.6-2.0x raw SQLite's one connection
    /// (1.2x this way, `keycat-bench --only catalog`).
    @usableFromInline
    func checkOutReader() -> LockedConnection {
        guard !readers.isEmpty else {
            writer.lock()
            return writer
        }
        for reader in readers where reader.tryLock() { return reader }
        let reader = readers[Int(nextReader.wrappingAdd(1, ordering: .relaxed).oldValue.magnitude % UInt(readers.count))]
        reader.lock()
        return reader
    }

    /// Whether `path` names a private in-memory database rather than a file.
    static func isInMemory(_ path: String) -> Bool { path == ":memory:" || path.isEmpty }

    /// Closes every connection. Using the database afterwards fails with `SQLITE_MISUSE`.
    /// Closing twice is harmless.
    package func close() {
        threads.shutdown()
        try? writer.withLock { $0.close() }
        for reader in readers { try? reader.withLock { $0.close() } }
        versionProbe?.close()
        watcher.withLock { watcher in
            watcher.current?.close()
            watcher = (nil, true)
        }
    }
}

/// The connection behind ``SQLiteDatabase/dataVersion()``: read-only, opened on first use (most
/// programs never ask, and a connection holds file descriptors), and never used for anything
/// else, since `PRAGMA data_version` compares one connection's view with its own last one. Its
/// answer stands for ``maximumAge``: calls within that of the last one that asked get the same
/// answer from memory.
///
/// `@unchecked Sendable`: `connection` and `closed` are only touched while `lock` is held; the
/// last answer and when it was asked are atomics, the time stored after the answer (releasing),
/// so a call that sees a recent time sees that answer or a later one.
final class DataVersionProbe: @unchecked Sendable {
    /// How long an answer from the file stands for it.
    static let maximumAge: Duration = .milliseconds(1)
    private static let maximumAgeNanoseconds = UInt64(maximumAge.components.attoseconds / 1_000_000_000)

    private let path: String
    private let configuration: SQLiteConfiguration
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    private var closed = false
    /// When the file was last asked, in nanoseconds of the monotonic clock; 0: not since opening
    /// (or since closing).
    private let askedAt = Atomic<UInt64>(0)
    private let answer = Atomic<Int64>(0)

    init(path: String, configuration: SQLiteConfiguration) {
        self.path = path
        self.configuration = configuration
    }

    func version() throws -> Int64 {
        let asked = askedAt.load(ordering: .acquiring)
        // A time after `now` (another thread asked meanwhile) wraps to a large age: asked again.
        if asked != 0, DispatchTime.now().uptimeNanoseconds &- asked < Self.maximumAgeNanoseconds {
            return answer.load(ordering: .relaxed)
        }
        lock.lock()
        defer { lock.unlock() }
        // 21 is SQLITE_MISUSE, what every other use of a closed database answers.
        guard !closed else { throw SQLiteError(extendedCode: 21, message: "the database is closed", sql: "PRAGMA data_version") }
        if connection == nil { connection = try SQLiteConnection(path: path, configuration: configuration, readOnly: true) }
        let value = try connection?.queryOne("PRAGMA data_version") { $0.int64(0) } ?? 0
        answer.store(value, ordering: .relaxed)
        askedAt.store(max(1, DispatchTime.now().uptimeNanoseconds), ordering: .releasing)
        return value
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        askedAt.store(0, ordering: .releasing)
        connection?.close()
        connection = nil
        closed = true
    }
}

/// A connection behind its own lock, with explicit lock and unlock so the hot read path can be
/// inlined into its callers.
///
/// `@unchecked Sendable`: `connection` is not Sendable, and is only touched between `lock()` (or
/// a successful `tryLock()`) and `unlock()` — by ``withLock(_:)`` and by the database's reads
/// after ``SQLiteDatabase/checkOutReader()`` — never elsewhere.
@usableFromInline
final class LockedConnection: @unchecked Sendable {
    @usableFromInline let connection: SQLiteConnection
    private let mutex = NSLock()

    init(_ connection: SQLiteConnection) { self.connection = connection }

    func lock() { mutex.lock() }

    func tryLock() -> Bool { mutex.try() }

    @usableFromInline
    func unlock() { mutex.unlock() }

    func withLock<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(connection)
    }
}
