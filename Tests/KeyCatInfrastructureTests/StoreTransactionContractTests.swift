import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// What ``SQLDatabase``'s writes and reads promise on every store, checked the same way on each:
/// the store contract for transactions. What only one store has (Postgres's retries after a
/// lost race, its cancelled statements; SQLite's interrupted reads) is tested beside that store.
@Suite("Store contract: transactions")
struct StoreTransactionContractTests {
    struct Boom: Error {}

    /// Runs `check` on `count` handles of a fresh database of `store` holding an empty table `t`.
    private func withTable(
        _ store: TestStore, handles count: Int = 1,
        _ check: ([any SQLDatabase]) async throws -> Void
    ) async throws {
        try await store.withDatabases(count) { databases in
            try await Self.createTable(databases[0])
            try await check(databases)
        }
    }

    private static func createTable<Database: SQLDatabase>(_ database: Database) async throws {
        try await database.write { connection in
            let type = connection.dialect.columnTypes
            try connection.execute("CREATE TABLE t (x \(type.integer) NOT NULL)\(type.tableOptions)")
        }
    }

    private static func values<Database: SQLDatabase>(_ database: Database) async throws -> [Int] {
        try await database.read { try $0.query("SELECT x FROM t ORDER BY x", []) { $0.int(0) } }
    }

    @Test("a thrown error rolls back everything the transaction wrote, and the next write commits",
          arguments: TestStore.allCases)
    func rollback(_ store: TestStore) async throws {
        try await withTable(store) { try await Self.rollback($0[0]) }
    }

    static func rollback<Database: SQLDatabase>(_ database: Database) async throws {
        await #expect(throws: Boom.self) {
            try await database.write { connection in
                try connection.run("INSERT INTO t VALUES (1)", [])
                try connection.run("INSERT INTO t VALUES (2)", [])
                throw Boom()
            }
        }
        #expect(try await values(database) == [])
        try await database.write { try $0.run("INSERT INTO t VALUES (3)", []) }
        #expect(try await values(database) == [3])
    }

    @Test("a failing statement rolls back the statements before it", arguments: TestStore.allCases)
    func failingStatement(_ store: TestStore) async throws {
        try await withTable(store) { try await Self.failingStatement($0[0]) }
    }

    static func failingStatement<Database: SQLDatabase>(_ database: Database) async throws {
        await #expect(throws: (any Error).self) {
            try await database.write { connection in
                try connection.run("INSERT INTO t VALUES (1)", [])
                try connection.run("INSERT INTO t VALUES (NULL)", [])  // NOT NULL fails
            }
        }
        #expect(try await values(database) == [])
        try await database.write { try $0.run("INSERT INTO t VALUES (2)", []) }
        #expect(try await values(database) == [2])
    }

    @Test("another process sees a write when it commits, not before", arguments: TestStore.allCases)
    func uncommittedIsInvisible(_ store: TestStore) async throws {
        try await withTable(store, handles: 2) { try await Self.uncommittedIsInvisible($0[0], other: $0[1]) }
    }

    static func uncommittedIsInvisible<Database: SQLDatabase>(_ database: Database, other: any SQLDatabase) async throws {
        let other = other as! Database
        let count = { () throws -> Int in
            try other.blockingWithConnection { try $0.queryOne("SELECT count(*) FROM t", []) { $0.int(0) } ?? -1 }
        }
        try await database.write { connection in
            try connection.run("INSERT INTO t VALUES (1)", [])
            #expect(try count() == 0)
        }
        #expect(try count() == 1)
    }

    @Test("a nested transaction is a savepoint: its failure, a failed statement's included, undoes only its own work",
          arguments: TestStore.allCases)
    func savepoints(_ store: TestStore) async throws {
        try await withTable(store) { try await Self.savepoints($0[0]) }
    }

    static func savepoints<Database: SQLDatabase>(_ database: Database) async throws {
        try await database.write { connection in
            try connection.run("INSERT INTO t VALUES (1)", [])
            #expect(throws: Boom.self) {
                try connection.transaction(isolation: .readCommitted) { inner in
                    try inner.run("INSERT INTO t VALUES (2)", [])
                    throw Boom()
                }
            }
            // A failed statement inside a savepoint does not doom the outer transaction.
            #expect(throws: (any Error).self) {
                try connection.transaction(isolation: .readCommitted) { try $0.run("INSERT INTO t VALUES (NULL)", []) }
            }
            try connection.transaction(isolation: .readCommitted) { inner in
                try inner.run("INSERT INTO t VALUES (3)", [])
                try inner.transaction(isolation: .readCommitted) { try $0.run("INSERT INTO t VALUES (4)", []) }
            }
        }
        #expect(try await values(database) == [1, 3, 4])
    }

    @Test("the outer transaction's rollback also undoes its released savepoints", arguments: TestStore.allCases)
    func outerRollback(_ store: TestStore) async throws {
        try await withTable(store) { try await Self.outerRollback($0[0]) }
    }

    static func outerRollback<Database: SQLDatabase>(_ database: Database) async throws {
        await #expect(throws: Boom.self) {
            try await database.write { connection in
                try connection.transaction(isolation: .readCommitted) { try $0.run("INSERT INTO t VALUES (1)", []) }
                throw Boom()
            }
        }
        #expect(try await values(database) == [])
    }

    @Test("a read sees one snapshot, whatever commits meanwhile, and cannot write", arguments: TestStore.allCases)
    func readSnapshot(_ store: TestStore) async throws {
        try await withTable(store, handles: 2) { try await Self.readSnapshot($0[0], other: $0[1]) }
    }

    static func readSnapshot<Database: SQLDatabase>(_ database: Database, other: any SQLDatabase) async throws {
        let other = other as! Database
        await #expect(throws: (any Error).self) {
            try await database.read { try $0.run("INSERT INTO t VALUES (1)", []) }
        }
        let (before, after) = try await database.read { connection in
            let before = try connection.queryOne("SELECT count(*) FROM t", []) { $0.int(0) }
            try other.blockingWithConnection { try $0.run("INSERT INTO t VALUES (2)", []) }
            let after = try connection.queryOne("SELECT count(*) FROM t", []) { $0.int(0) }
            return (before, after)
        }
        #expect(before == 0 && after == 0)
        #expect(try await values(database) == [2])
    }

    @Test("many tasks write and read at once, and every write lands exactly once", arguments: TestStore.allCases)
    func concurrentWriters(_ store: TestStore) async throws {
        try await withTable(store) { try await Self.concurrentWriters($0[0]) }
    }

    static func concurrentWriters<Database: SQLDatabase>(_ database: Database) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        try await database.write { try $0.run("INSERT INTO t VALUES (?)", [.int(task * 1_000 + step)]) }
                        _ = try await database.read { try $0.queryOne("SELECT count(*) FROM t", []) { $0.int(0) } }
                    }
                }
            }
            try await group.waitForAll()
        }
        let values = try await values(database)
        #expect(values.count == 400 && Set(values).count == 400)
    }
}
