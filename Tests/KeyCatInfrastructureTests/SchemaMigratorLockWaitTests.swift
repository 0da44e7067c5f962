import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// A migrator that finds the write lock taken waits for it as long as its ``SchemaMigrator/lockWait``,
/// not only SQLite's busy timeout: another process may be applying a migration that takes
/// minutes. On SQLite; each migration on Postgres sets a `lock_timeout`, whose expiry the migrator
/// treats the same way (`PostgresMigrationLockTests`).
@Suite("Schema migrator: waiting for the write lock")
struct SchemaMigratorLockWaitTests {
    /// Another connection's write transaction on `path`, held for `seconds` on a thread of its
    /// own; returns once the lock is held, and the semaphore is signalled when it is released.
    private func holdWriteLock(on path: String, for seconds: TimeInterval) -> DispatchSemaphore {
        let held = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                let holder = try SQLiteConnection(path: path, configuration: SQLiteConfiguration())
                try holder.execute("BEGIN IMMEDIATE")
                held.signal()
                Thread.sleep(forTimeInterval: seconds)
                try holder.execute("COMMIT")
                holder.close()
            } catch {
                Issue.record("the holder failed: \(error)")
                held.signal()
            }
            released.signal()
        }
        held.wait()
        return released
    }

    /// Runs `body` on a new database whose connections give up on a lock after 20 ms, while
    /// another connection holds its write lock for `seconds`; `released` is signalled once it
    /// lets go.
    private func whileLocked(for seconds: TimeInterval,
                             _ body: (_ database: SQLiteDatabase, _ released: DispatchSemaphore) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("locked.db").path
            var configuration = SQLiteConfiguration()
            configuration.busyTimeoutMilliseconds = 20
            let database = try SQLiteDatabase(path: path, configuration: configuration)
            defer { database.close() }
            try body(database, holdWriteLock(on: path, for: seconds))
        }
    }

    @Test("a lock held for longer than the busy timeout is waited for, and the migrations then applied once")
    func waitsPastTheBusyTimeout() throws {
        let migrator = try SchemaMigrator<SQLiteConnection>(migrations: StoreMigrationContractTests.migrations())
        try whileLocked(for: 0.4) { database, released throws in
            let started = ContinuousClock.now
            #expect(try migrator.migrate(database) == [1, 2, 3])
            // Twenty times the busy timeout: the migrator began again rather than failing.
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            released.wait()
            #expect(try migrator.migrate(database) == [])
        }
    }

    @Test("a lock held for all of the migrator's wait is a clear error, with nothing applied")
    func givesUpAfterItsWait() throws {
        var migrator = try SchemaMigrator<SQLiteConnection>(migrations: StoreMigrationContractTests.migrations())
        migrator.lockWait = .milliseconds(150)
        try whileLocked(for: 0.6) { database, released throws in
            #expect(throws: SchemaMigrationError.lockWaitExpired(version: 1, waited: .milliseconds(150))) {
                try migrator.migrate(database)
            }
            released.wait()
            #expect(try migrator.currentVersion(of: database) == 0)
            // The lock released, the same migrator applies everything.
            #expect(try migrator.migrate(database) == [1, 2, 3])
        }
        let error = SchemaMigrationError.lockWaitExpired(version: 1, waited: .seconds(600))
        #expect("\(error)".contains("gave up on schema migration 1 after waiting 600 s"))
    }
}
