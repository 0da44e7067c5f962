import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("SQLite transactions")
struct SQLiteTransactionTests {
    struct Boom: Error {}

    private func withDatabase(_ body: (SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("t.db").path)
            defer { database.close() }
            try await database.write { try $0.execute("CREATE TABLE t (x INTEGER NOT NULL)") }
            try await body(database)
        }
    }

    private func count(_ database: SQLiteDatabase) async throws -> Int {
        try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } ?? -1 }
    }

    @Test("a thrown error rolls back everything the transaction wrote")
    func rollback() async throws {
        try await withDatabase { database throws in
            await #expect(throws: Boom.self) {
                try await database.write { connection throws in
                    try connection.run("INSERT INTO t VALUES (1)")
                    try connection.run("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
            }
            await #expect(try count(database) == 0)
            // The writer is usable again and not left inside a transaction.
            try await database.write { try $0.run("INSERT INTO t VALUES (3)") }
            await #expect(try count(database) == 1)
        }
    }

    @Test("a failing statement rolls back the statements before it")
    func rollbackOnSQLError() async throws {
        try await withDatabase { database throws in
            await #expect(throws: SQLiteError.self) {
                try await database.write { connection throws in
                    try connection.run("INSERT INTO t VALUES (1)")
                    try connection.run("INSERT INTO t VALUES (NULL)")  // NOT NULL fails
                }
            }
            await #expect(try count(database) == 0)
        }
    }

    @Test("uncommitted writes are invisible to readers")
    func isolation() async throws {
        try await withDatabase { database throws in
            try await database.write { connection throws in
                try connection.run("INSERT INTO t VALUES (1)")
                // A reader connection sees the last committed snapshot: no rows yet.
                #expect(try database.blockingRead { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } } == 0)
            }
            await #expect(try count(database) == 1)
        }
    }

    @Test("a nested transaction is a savepoint: its failure undoes only its own work")
    func savepoint() async throws {
        try await withDatabase { database throws in
            try await database.write { connection throws in
                try connection.run("INSERT INTO t VALUES (1)")
                #expect(throws: Boom.self) {
                    try connection.transaction { inner in
                        try inner.run("INSERT INTO t VALUES (2)")
                        throw Boom()
                    }
                }
                try connection.transaction { inner in
                    try inner.run("INSERT INTO t VALUES (3)")
                    try inner.transaction { innermost in try innermost.run("INSERT INTO t VALUES (4)") }
                }
                #expect(connection.transactionDepth == 1)
            }
            let values = try await database.read { try $0.query("SELECT x FROM t ORDER BY x") { $0.int(0) } }
            #expect(values == [1, 3, 4])
        }
    }

    @Test("the outer rollback also undoes released savepoints")
    func outerRollback() async throws {
        try await withDatabase { database throws in
            await #expect(throws: Boom.self) {
                try await database.write { connection throws in
                    try connection.transaction { try $0.run("INSERT INTO t VALUES (1)") }
                    throw Boom()
                }
            }
            await #expect(try count(database) == 0)
        }
    }

    @Test("many tasks write and read at once, and every write lands exactly once")
    func concurrentWriters() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("c.db").path)
            defer { database.close() }
            try await database.write { try $0.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for step in 0..<50 {
                            try await database.write { try $0.run("INSERT INTO t VALUES (?)", [.int(task * 1_000 + step)]) }
                            _ = try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } }
            #expect(total == 400)
        }
    }
}
