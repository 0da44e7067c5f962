import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("Postgres migrations", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresMigratorTests {
    struct Boom: Error {}

    static let migrations = [
        PostgresMigration(version: 1, name: "items", sql: "CREATE TABLE items (id bigserial PRIMARY KEY)"),
        PostgresMigration(version: 2, name: "item names", sql: "ALTER TABLE items ADD COLUMN name text"),
        PostgresMigration(version: 3, name: "seen", sql: "CREATE TABLE seen (version integer NOT NULL)"),
    ]

    @Test("applies pending migrations in order, once, and records them")
    func migratesOnce() async throws {
        try await withPostgresDatabase { database in
            let migrator = try PostgresMigrator(migrations: Self.migrations)
            #expect(try migrator.currentVersion(of: database) == 0)
            #expect(try migrator.migrate(database) == [1, 2, 3])
            #expect(try migrator.migrate(database) == [])
            #expect(try migrator.currentVersion(of: database) == 3)
            let names = try await database.read { try $0.query("SELECT name FROM schema_migrations ORDER BY version") { $0.string(0) } }
            #expect(names == ["items", "item names", "seen"])
        }
    }

    @Test("several servers migrating at once apply each migration exactly once")
    func concurrentMigrators() async throws {
        try await withPostgresSchema { configuration in
            // Each migration records that it ran, in a table no unique key protects: a migration
            // applied twice would show up twice.
            var migrations = Self.migrations
            migrations.append(PostgresMigration(version: 4, name: "slow") { connection in
                try connection.run("SELECT pg_sleep(0.1)")
                try connection.run("INSERT INTO seen VALUES (4)")
            })
            migrations.append(PostgresMigration(version: 5, name: "after", sql: "INSERT INTO seen VALUES (5)"))
            let migrator = try PostgresMigrator(migrations: migrations)
            let servers = 4
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<servers {
                    group.addTask {
                        let database = try PostgresDatabase(configuration: configuration)
                        defer { database.close() }
                        return try migrator.migrate(database)
                    }
                }
                var all: [Int] = []
                for try await versions in group { all += versions }
                return all
            }
            #expect(applied.sorted() == [1, 2, 3, 4, 5])
            let database = try PostgresDatabase(configuration: configuration)
            defer { database.close() }
            let seen = try await database.read { try $0.query("SELECT version FROM seen ORDER BY version") { $0.int(0) } }
            #expect(seen == [4, 5])
            await #expect(try database.read { try $0.queryOne("SELECT count(*) FROM schema_migrations") { $0.int(0) } } == 5)
        }
    }

    @Test("a database from a newer KeyCat is refused with the SQLite migrator's error and left unchanged")
    func databaseFromTheFuture() async throws {
        try await withPostgresDatabase { database in
            let newer = try PostgresMigrator(migrations: Self.migrations + [
                PostgresMigration(version: 4, name: "future", sql: "CREATE TABLE future (x integer)"),
            ])
            try newer.migrate(database)
            let older = try PostgresMigrator(migrations: Self.migrations)
            #expect(throws: SchemaMigrationError.databaseTooNew(databaseVersion: 4, supportedVersion: 3)) {
                try older.migrate(database)
            }
            #expect(throws: SQLiteMigrationError.self) { try older.checkCompatible(database) }
            #expect(try newer.currentVersion(of: database) == 4)
        }
    }

    @Test("a failing migration is rolled back with its record; the ones before it stay")
    func failingMigration() async throws {
        try await withPostgresDatabase { database in
            let migrator = try PostgresMigrator(migrations: Self.migrations + [
                PostgresMigration(version: 4, name: "half done") { connection in
                    try connection.execute("CREATE TABLE half (x integer)")
                    throw Boom()
                },
            ])
            #expect(throws: Boom.self) { try migrator.migrate(database) }
            #expect(try migrator.currentVersion(of: database) == 3)
            let half = try await database.read { try $0.queryOne("SELECT to_regclass('half') IS NULL") { $0.bool(0) } }
            #expect(half == true)
            // The advisory lock was released: migrating again is not stuck behind it.
            #expect(throws: Boom.self) { try migrator.migrate(database) }
        }
    }

    @Test("a migration list with a gap is refused")
    func invalidList() {
        #expect(throws: SchemaMigrationError.self) {
            try PostgresMigrator(migrations: [
                PostgresMigration(version: 2, name: "two", sql: "SELECT 1"),
            ])
        }
    }
}
