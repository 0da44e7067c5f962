import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("SQLite's data version")
struct SQLiteDataVersionTests {
    private func withDatabase(_ body: (SQLiteDatabase, String) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("v.db").path
            let database = try SQLiteDatabase(path: path)
            defer { database.close() }
            try await database.write { try $0.execute("CREATE TABLE t (x INTEGER NOT NULL)") }
            try await body(database, path)
        }
    }

    @Test("a write through the database moves the version before it returns, and reads do not")
    func ownWrites() async throws {
        try await withDatabase { database, _ in
            let before = try #require(try database.dataVersion())
            // Within the probe's millisecond and well past it: only a write moves it.
            #expect(try database.dataVersion() == before)
            _ = try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } }
            try await Task.sleep(for: .milliseconds(5))
            #expect(try database.dataVersion() == before)
            try await database.write { try $0.run("INSERT INTO t VALUES (1)") }
            let after = try #require(try database.dataVersion())
            #expect(after > before, "seen at once, not after the file is next asked")
        }
    }

    @Test("another connection's commit moves the version once the file is next asked")
    func otherConnections() async throws {
        try await withDatabase { database, path in
            let before = try #require(try database.dataVersion())
            let other = try SQLiteDatabase(path: path)
            defer { other.close() }
            try await other.write { try $0.run("INSERT INTO t VALUES (2)") }
            let deadline = Date().addingTimeInterval(30)
            while try database.dataVersion() == before {
                try #require(Date() < deadline, "another connection's commit unseen after 30 seconds")
                try await Task.sleep(for: .milliseconds(1))
            }
            // It only grows, so a cache never files a newer answer under an older number.
            #expect(try #require(try database.dataVersion()) > before)
        }
    }

    @Test("an in-memory database has none, and a closed one refuses")
    func inMemoryAndClosed() async throws {
        let memory = try SQLiteDatabase(path: ":memory:")
        #expect(try memory.dataVersion() == nil)
        memory.close()
        try await withDatabase { database, _ in
            _ = try database.dataVersion()
            database.close()
            #expect(throws: SQLiteError.self) { try database.dataVersion() }
        }
    }
}
