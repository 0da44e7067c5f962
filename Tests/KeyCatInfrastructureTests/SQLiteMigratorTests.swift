import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("SQLite migrations")
struct SQLiteMigratorTests {
    struct Boom: Error {}

    static let migrations = [
        SQLiteMigration(version: 1, name: "items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY)"),
        SQLiteMigration(version: 2, name: "item names", sql: "ALTER TABLE items ADD COLUMN name TEXT"),
    ]

    private func withDatabase(_ body: (SQLiteDatabase, String) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("m.db").path
            let database = try SQLiteDatabase(path: path)
            defer { database.close() }
            try await body(database, path)
        }
    }

    @Test("applies pending migrations in order, once, and records them")
    func migratesOnce() async throws {
        try await withDatabase { database, _ throws in
            let migrator = try SQLiteMigrator(migrations: Self.migrations)
            #expect(try migrator.migrate(database) == [1, 2])
            #expect(try migrator.migrate(database) == [])
            #expect(try migrator.currentVersion(of: database) == 2)
            let names = try await database.read { try $0.query("SELECT name FROM schema_migrations ORDER BY version") { $0.string(0) } }
            #expect(names == ["items", "item names"])
        }
    }

    @Test("a database from the future is refused with a clear error and left unchanged")
    func databaseFromTheFuture() async throws {
        try await withDatabase { database, _ throws in
            let newer = try SQLiteMigrator(migrations: Self.migrations + [
                SQLiteMigration(version: 3, name: "future", sql: "CREATE TABLE future (x)"),
            ])
            try newer.migrate(database)
            let older = try SQLiteMigrator(migrations: Self.migrations)
            #expect(throws: SQLiteMigrationError.databaseTooNew(databaseVersion: 3, supportedVersion: 2)) {
                try older.migrate(database)
            }
            #expect(throws: SQLiteMigrationError.self) { try older.checkCompatible(database) }
            #expect(try newer.currentVersion(of: database) == 3)
            let error = SQLiteMigrationError.databaseTooNew(databaseVersion: 3, supportedVersion: 2)
            #expect("\(error)".contains("newer than this build supports"))
        }
    }

    @Test("a failing migration is rolled back and not recorded")
    func failingMigration() async throws {
        try await withDatabase { database, _ throws in
            let migrator = try SQLiteMigrator(migrations: [
                SQLiteMigration(version: 1, name: "items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY)"),
                SQLiteMigration(version: 2, name: "broken") { connection throws in
                    try connection.execute("CREATE TABLE half (x)")
                    throw Boom()
                },
            ])
            #expect(throws: Boom.self) { try migrator.migrate(database) }
            #expect(try migrator.currentVersion(of: database) == 1)
            let half = try await database.read {
                try $0.queryOne("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") { $0.int(0) }
            }
            #expect(half == 0)
        }
    }

    @Test("a migration list with a gap is rejected")
    func invalidList() {
        #expect(throws: SQLiteMigrationError.self) {
            try SQLiteMigrator(migrations: [SQLiteMigration(version: 2, name: "skip", sql: "SELECT 1")])
        }
    }

    @Test("two databases migrating one file at once apply each migration exactly once")
    func concurrentMigration() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("race.db").path
            let migrator = try SQLiteMigrator(migrations: Self.migrations)
            let first = try SQLiteDatabase(path: path)
            let second = try SQLiteDatabase(path: path)
            defer { first.close(); second.close() }
            async let a = Task { try migrator.migrate(first) }.value
            async let b = Task { try migrator.migrate(second) }.value
            let applied = try await (a + b).sorted()
            #expect(applied == [1, 2])
        }
    }
}
