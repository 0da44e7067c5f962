import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// What ``SchemaMigrator`` promises on every store, checked the same way on each: the store
/// contract for migrations. Each test opens its store's database into a generic check, so a
/// store added later runs these unchanged.
@Suite("Store contract: migrations")
struct StoreMigrationContractTests {
    struct Boom: Error {}

    /// Three migrations, their column types spelled by the store.
    static func migrations<Connection: SQLConnection>() -> [SchemaMigration<Connection>] {
        [
            SchemaMigration(version: 1, name: "items") { connection in
                let type = connection.dialect.columnTypes
                try connection.execute("CREATE TABLE items (id \(type.rowID))\(type.tableOptions)")
            },
            SchemaMigration(version: 2, name: "item names") { connection in
                try connection.execute("ALTER TABLE items ADD COLUMN name \(connection.dialect.columnTypes.text)")
            },
            // Migrations after this one record here that they ran: a table no unique key guards,
            // so a migration applied twice shows twice.
            SchemaMigration(version: 3, name: "seen") { connection in
                let type = connection.dialect.columnTypes
                try connection.execute("CREATE TABLE seen (version \(type.integer) NOT NULL)\(type.tableOptions)")
            },
        ]
    }

    @Test("applies pending migrations in order, once, and records them", arguments: TestStore.allCases)
    func migratesOnce(_ store: TestStore) async throws {
        try await store.withDatabases { try await Self.migratesOnce($0[0]) }
    }

    static func migratesOnce<Database: SQLDatabase>(_ database: Database) async throws {
        let migrator = try SchemaMigrator<Database.Connection>(migrations: migrations())
        #expect(try migrator.currentVersion(of: database) == 0)
        #expect(try migrator.migrate(database) == [1, 2, 3])
        #expect(try migrator.migrate(database) == [])
        #expect(try migrator.currentVersion(of: database) == 3)
        let names = try await database.read {
            try $0.query("SELECT name FROM schema_migrations ORDER BY version", []) { $0.string(0) }
        }
        #expect(names == ["items", "item names", "seen"])
    }

    @Test("several processes migrating one database at once apply each migration exactly once",
          arguments: TestStore.allCases)
    func concurrentMigrators(_ store: TestStore) async throws {
        try await store.withDatabases(4) { try await Self.concurrentMigrators($0[0], others: $0.dropFirst()) }
    }

    static func concurrentMigrators<Database: SQLDatabase>(
        _ first: Database, others: ArraySlice<any SQLDatabase>
    ) async throws {
        let migrator = try SchemaMigrator<Database.Connection>(migrations: migrations() + [
            SchemaMigration(version: 4, name: "slow") { connection in
                // Long enough that the others reach the lock while this one holds it.
                Thread.sleep(forTimeInterval: 0.1)
                try connection.run("INSERT INTO seen VALUES (4)", [])
            },
            SchemaMigration(version: 5, name: "after", sql: "INSERT INTO seen VALUES (5)"),
        ])
        let databases = [first] + others.map { $0 as! Database }
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for database in databases {
                group.addTask { try migrator.migrate(database) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(applied.sorted() == [1, 2, 3, 4, 5])
        let seen = try await first.read { try $0.query("SELECT version FROM seen ORDER BY version", []) { $0.int(0) } }
        #expect(seen == [4, 5])
        let recorded = try await first.read { try $0.queryOne("SELECT count(*) FROM schema_migrations", []) { $0.int(0) } }
        #expect(recorded == 5)
    }

    @Test("a database from a newer build is refused with a clear error and left unchanged",
          arguments: TestStore.allCases)
    func databaseFromTheFuture(_ store: TestStore) async throws {
        try await store.withDatabases { try await Self.databaseFromTheFuture($0[0]) }
    }

    static func databaseFromTheFuture<Database: SQLDatabase>(_ database: Database) async throws {
        let newer = try SchemaMigrator<Database.Connection>(migrations: migrations() + [
            SchemaMigration(version: 4, name: "future", sql: "INSERT INTO seen VALUES (4)"),
        ])
        try newer.migrate(database)
        let older = try SchemaMigrator<Database.Connection>(migrations: migrations())
        #expect(throws: SchemaMigrationError.databaseTooNew(databaseVersion: 4, supportedVersion: 3)) {
            try older.migrate(database)
        }
        #expect(throws: SchemaMigrationError.self) { try older.checkCompatible(database) }
        #expect(try newer.currentVersion(of: database) == 4)
        let seen = try await database.read { try $0.query("SELECT version FROM seen", []) { $0.int(0) } }
        #expect(seen == [4])
        let error = SchemaMigrationError.databaseTooNew(databaseVersion: 4, supportedVersion: 3)
        #expect("\(error)".contains("newer than this build supports"))
    }

    @Test("a failing migration is rolled back with its record; the ones before it stay",
          arguments: TestStore.allCases)
    func failingMigration(_ store: TestStore) async throws {
        try await store.withDatabases { try await Self.failingMigration($0[0]) }
    }

    static func failingMigration<Database: SQLDatabase>(_ database: Database) async throws {
        let migrator = try SchemaMigrator<Database.Connection>(migrations: migrations() + [
            SchemaMigration(version: 4, name: "half done") { connection in
                try connection.execute("CREATE TABLE half (x \(connection.dialect.columnTypes.integer))")
                throw Boom()
            },
        ])
        #expect(throws: Boom.self) { try migrator.migrate(database) }
        #expect(try migrator.currentVersion(of: database) == 3)
        #expect(try await database.read { try $0.hasTable("half") } == false)
        // Nothing was left holding the migration lock: migrating again fails the same way.
        #expect(throws: Boom.self) { try migrator.migrate(database) }
    }

    @Test("a migration list with a gap is refused")
    func invalidList() {
        #expect(throws: SchemaMigrationError.self) {
            try SchemaMigrator(migrations: [SQLiteMigration(version: 2, name: "two", sql: "SELECT 1")])
        }
    }
}
