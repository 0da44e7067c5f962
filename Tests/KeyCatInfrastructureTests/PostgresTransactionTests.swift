import Foundation
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCatInfrastructure

/// What only Postgres's transactions do; what every store's do is `StoreTransactionContractTests`.
@Suite("Postgres transactions", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresTransactionTests {
    struct Boom: Error {}

    private func withDatabase(
        configure: (inout PostgresConfiguration) -> Void = { _ in }, _ body: (PostgresDatabase) async throws -> Void
    ) async throws {
        try await withPostgresDatabase(configure: configure) { database in
            try await database.write { try $0.execute("CREATE TABLE t (x integer NOT NULL)") }
            try await body(database)
        }
    }

    private func count(_ database: PostgresDatabase) async throws -> Int {
        try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } ?? -1 }
    }

    @Test("a failing statement rolls back the statements before it, and the connection goes on")
    func rollbackOnSQLError() async throws {
        try await withDatabase(configure: { $0.maximumConnections = 1 }) { database in
            let error = try await #require(throws: PostgresError.self) {
                try await database.write { connection in
                    try connection.run("INSERT INTO t VALUES (1)")
                    try connection.run("INSERT INTO t VALUES (NULL)")
                }
            }
            #expect(error.isNotNullViolation)
            await #expect(try count(database) == 0)
            let inTransaction = try await database.withConnection { $0.isInTransaction }
            #expect(!inTransaction)
        }
    }

    @Test("a serializable transaction that loses to a concurrent one runs again and then commits")
    func retriesSerializationFailure() async throws {
        try await withDatabase { database in
            try await database.write { try $0.run("INSERT INTO t VALUES (0)") }
            let rival = try PostgresConnection(configuration: database.configuration)
            defer { rival.close() }
            let attempts = Atomic(0)
            let final = try await database.write(isolation: .serializable) { connection in
                let attempt = attempts.add(1, ordering: .relaxed).newValue
                let seen = try connection.queryOne("SELECT x FROM t") { $0.int(0) } ?? -1
                if attempt == 1 {
                    // Another connection changes the row this snapshot has already read.
                    try rival.run("UPDATE t SET x = x + 100")
                }
                try connection.run("UPDATE t SET x = ? + 1", [.int(seen)])
                return seen + 1
            }
            #expect(attempts.load(ordering: .relaxed) == 2)
            #expect(final == 101)
            await #expect(try database.read { try $0.queryOne("SELECT x FROM t") { $0.int(0) } } == 101)
        }
    }

    @Test("when every attempt loses, the serialization failure is thrown and nothing is written")
    func retriesAreBounded() async throws {
        try await withDatabase(configure: { $0.maximumTransactionAttempts = 3 }) { database in
            try await database.write { try $0.run("INSERT INTO t VALUES (0)") }
            let rival = try PostgresConnection(configuration: database.configuration)
            defer { rival.close() }
            let attempts = Atomic(0)
            let error = try await #require(throws: PostgresError.self) {
                try await database.write(isolation: .repeatableRead) { connection in
                    attempts.add(1, ordering: .relaxed)
                    _ = try connection.queryOne("SELECT x FROM t") { $0.int(0) }
                    try rival.run("UPDATE t SET x = x + 1")
                    try connection.run("UPDATE t SET x = -1")
                }
            }
            #expect(error.isSerializationFailure)
            #expect(error.isTransientTransactionFailure)
            #expect(attempts.load(ordering: .relaxed) == 3)
            await #expect(try database.read { try $0.queryOne("SELECT x FROM t") { $0.int(0) } } == 3)
        }
    }

    @Test("of two transactions that deadlock, the one the server fails runs again and both commit")
    func retriesDeadlock() async throws {
        try await withDatabase(configure: { $0.maximumConnections = 2 }) { database in
            try await database.write { try $0.run("INSERT INTO t VALUES (1), (2)") }
            let attempts = Atomic(0)
            // Each first attempt locks its own row, waits until the other has locked its row too,
            // then asks for the other's: a deadlock the server breaks by failing one of them.
            let bothLocked = DispatchGroup()
            bothLocked.enter()
            bothLocked.enter()
            let failures = Mutex<[String]>([])
            let transfer: @Sendable (Int, Int) async -> Void = { mine, theirs in
                // Only this transfer's own first attempt waits for the other: a retry must not.
                let firstAttempt = Atomic(true)
                do {
                    try await database.write { connection in
                        attempts.add(1, ordering: .relaxed)
                        try connection.run("UPDATE t SET x = x + 10 WHERE x % 10 = ?", [.int(mine)])
                        if firstAttempt.exchange(false, ordering: .relaxed) {
                            bothLocked.leave()
                            _ = bothLocked.wait(timeout: .now() + 60)  // a safety net, never reached
                        }
                        try connection.run("UPDATE t SET x = x + 10 WHERE x % 10 = ?", [.int(theirs)])
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            // The two bodies wait for each other, each on one of the database's own threads (one
            // per connection), which tasks on a cooperative pool as narrow as one thread could not.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await transfer(1, 2) }
                group.addTask { await transfer(2, 1) }
            }
            #expect(failures.withLock { $0 } == [])
            // Two first attempts and the victim's retry; under SERIALIZABLE the retry may also
            // lose once to the survivor's commit (40001) and run a fourth time.
            #expect((3...4).contains(attempts.load(ordering: .relaxed)))
            let values = try await database.read { try $0.query("SELECT x FROM t ORDER BY x") { $0.int(0) } }
            #expect(values == [21, 22])
        }
    }

    @Test("a write in a read is refused as Postgres refuses it in a read-only transaction")
    func readOnly() async throws {
        try await withDatabase { database in
            let error = try await #require(throws: PostgresError.self) {
                try await database.read { try $0.run("INSERT INTO t VALUES (1)") }
            }
            #expect(error.sqlState == "25006")  // read_only_sql_transaction
            await #expect(try count(database) == 0)
        }
    }
}
