import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// The schema check behind `db check` and the repair behind every write-open: what a bulk load
/// killed between dropping and rebuilding the product indexes leaves behind is found and fixed.
///
/// SQLite only: the repair follows the bulk load, which only a SQLite file has, and reads
/// `sqlite_schema`.
@Suite("The schema KeyCat's migrations build")
struct ExpectedSchemaTests {
    private func migrated(_ directory: URL) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("schema.db").path)
        try KeyCatSchema.migrator().migrate(database)
        return database
    }

    private func productIndexes(_ database: SQLiteDatabase) async throws -> [String] {
        try await database.read { try $0.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL ORDER BY name"
        ) { $0.string(0) } }
    }

    /// The plan of the first page of newest listings, on a fresh connection: an `EXPLAIN`
    /// statement has no transaction opcode, so a cached one is never re-planned after a schema
    /// change (real queries are).
    private func newestPagePlan(_ database: SQLiteDatabase) throws -> String {
        let query = ProductListQuery(filter: ProductFilter(), sort: .newest, after: nil, limit: 21)
        let part = try #require(query.parts.first)
        let connection = try SQLiteConnection(path: database.path, configuration: SQLiteConfiguration())
        defer { connection.close() }
        return try connection.query("EXPLAIN QUERY PLAN " + part.sql, part.arguments) { $0.string(3) }
            .joined(separator: " | ")
    }

    @Test("the expected set is read from the migrations themselves and matches a freshly migrated file")
    func expectedSet() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try migrated(directory)
            defer { database.close() }
            let names = Set(ExpectedSchema.objects.map(\.name))
            #expect(names.isSuperset(of: ["products", "users", "orders", "schema_migrations"]))
            #expect(names.isSuperset(of: try await productIndexes(database)))
            #expect(try await database.read { try ExpectedSchema.problems(on: $0) }.isEmpty)
        }
    }

    @Test("dropped product indexes are reported one by one, restored in one go, and list queries use them again")
    func droppedIndexes() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try migrated(directory)
            defer { database.close() }
            let indexes = try await productIndexes(database)
            #expect(indexes.count >= 3)
            #expect(try newestPagePlan(database).contains("INDEX"))
            try await database.write { connection in
                for name in indexes { try connection.execute("DROP INDEX \(name)") }
            }
            #expect(!(try newestPagePlan(database)).contains("INDEX"))
            let problems = try await database.read { try ExpectedSchema.problems(on: $0) }
            #expect(problems.count == indexes.count)
            for name in indexes { #expect(problems.contains { $0.contains("index \(name) is missing") }, "\(problems)") }

            #expect(try await ExpectedSchema.restoreMissing(database).sorted() == indexes)
            #expect(try await database.read { try ExpectedSchema.problems(on: $0) }.isEmpty)
            let restoredPlan = try newestPagePlan(database)
            #expect(restoredPlan.contains("INDEX"), "\(restoredPlan)")
            #expect(try await ExpectedSchema.restoreMissing(database).isEmpty)
        }
    }

    @Test("a missing table and an altered index are reported, and the health check carries them")
    func otherDepartures() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try migrated(directory)
            defer { database.close() }
            let index = try await #require(try productIndexes(database).first)
            try await database.write { connection in
                try connection.execute("DROP TABLE follows")
                try connection.execute("DROP INDEX \(index)")
                try connection.execute("CREATE INDEX \(index) ON products (id)")
            }
            let health = try await DatabaseHealth.check(database)
            #expect(health.schemaProblems.contains("table follows is missing"), "\(health.schemaProblems)")
            #expect(health.schemaProblems.contains { $0.hasPrefix("index \(index) differs") })
            #expect(!health.isHealthy)
        }
    }

    @Test("a database at an older version is told to migrate, not flooded with missing objects")
    func olderVersion() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("old.db").path)
            defer { database.close() }
            try SchemaMigrator(migrations: Array(KeyCatSchema.migrations.prefix(1))).migrate(database)
            let problems = try await database.read { try ExpectedSchema.problems(on: $0) }
            #expect(problems.count == 1)
            #expect(problems.first?.contains("keycat-admin init") == true)
        }
    }
}
