import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("Postgres pool", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresPoolTests {
    /// Ends the session of `processID` from a connection of its own, and waits until the server
    /// no longer lists it.
    private func terminate(_ processID: Int32, configuration: PostgresConfiguration) throws {
        let killer = try PostgresConnection(configuration: configuration)
        defer { killer.close() }
        #expect(try killer.queryOne("SELECT pg_terminate_backend(?)", [.int(processID)]) { $0.bool(0) } == true)
        let stillThere = "SELECT count(*) FROM pg_stat_activity WHERE pid = ?"
        while try killer.queryOne(stillThere, [.int(processID)], { $0.int(0) }) != 0 { usleep(10_000) }
    }

    @Test("a connection the server ended is replaced, and the next read and write just work")
    func replacesTerminatedConnection() async throws {
        try await withPostgresDatabase(configure: { $0.maximumConnections = 1 }) { database in
            try await database.write { try $0.execute("CREATE TABLE t (x integer)") }
            let first = try await database.withConnection { $0.backendProcessID }
            try terminate(first, configuration: database.configuration)
            let second = try await database.read { try $0.queryOne("SELECT pg_backend_pid()") { $0.int(0) } ?? 0 }
            #expect(second != 0 && Int32(second) != first)
            try terminate(Int32(second), configuration: database.configuration)
            try await database.write { try $0.run("INSERT INTO t VALUES (1)") }
            try await terminate(database.withConnection { $0.backendProcessID }, configuration: database.configuration)
            await #expect(try database.readStatement { try $0.queryOne("SELECT x FROM t") { $0.int(0) } } == 1)
            await #expect(try database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } } == 1)
            #expect(database.connectionCount == 1)
        }
    }

    @Test("a connection that breaks mid-statement outside a transaction reports a lost connection")
    func lostConnectionIsTyped() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            try terminate(connection.backendProcessID, configuration: configuration)
            let error = try #require(throws: PostgresError.self) { try connection.run("SELECT 1") }
            #expect(error.isConnectionLost, "\(error)")
            #expect(error.isTransientTransactionFailure)
            #expect(!connection.isOpen)
            #expect(!connection.checkUsable())
        }
    }

    @Test("many tasks at once share a few connections and every write counts")
    func concurrentTasks() async throws {
        try await withPostgresDatabase(configure: { $0.maximumConnections = 3 }) { database in
            try await database.write { connection in
                try connection.execute("""
                    CREATE TABLE counter (n integer NOT NULL);
                    INSERT INTO counter VALUES (0);
                    CREATE TABLE log (task integer PRIMARY KEY);
                    """)
            }
            let tasks = 40
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        try await database.write { connection in
                            try connection.run("UPDATE counter SET n = n + 1")
                            try connection.run("INSERT INTO log (task) VALUES (?)", [.int(task)])
                        }
                        _ = try await database.read { try $0.queryOne("SELECT n FROM counter") { $0.int(0) } }
                    }
                }
                try await group.waitForAll()
            }
            let (n, logged) = try await database.read { connection in
                (try connection.queryOne("SELECT n FROM counter") { $0.int(0) },
                 try connection.queryOne("SELECT count(*) FROM log") { $0.int(0) })
            }
            #expect(n == tasks && logged == tasks)
            #expect(database.connectionCount <= 3)
        }
    }

    @Test("a closed pool refuses work with a typed error, and closing twice is harmless")
    func closedPool() async throws {
        try await withPostgresSchema { configuration in
            let database = try PostgresDatabase(configuration: configuration)
            database.close()
            database.close()
            let error = try await #require(throws: PostgresError.self) { try await database.read { _ in 1 } }
            #expect(error.isClosed)
            #expect(database.connectionCount == 0)
        }
    }
}
