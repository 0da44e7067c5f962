import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's result codes (Postgres's SQLSTATEs are `PostgresValuesTests`' and the
/// hostile-input suites').
@Suite("Storage errors in domain terms")
struct StorageErrorTests {
    @Test("a unique violation becomes a duplicate, keeping SQLite's code")
    func duplicate() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("d.db").path)
            defer { database.close() }
            try await database.write { try $0.execute("CREATE TABLE t (x INTEGER UNIQUE); INSERT INTO t VALUES (1);") }
            do {
                try await storage { try await database.write { try $0.run("INSERT INTO t VALUES (1)") } }
                Issue.record("duplicate accepted")
            } catch let error as KeyCatError {
                #expect(error.code == .duplicate)
                #expect(error.context["sqlite_code"] == "2067")
            }
        }
    }

    @Test("other SQLite failures are storage errors; domain errors pass through untouched")
    func otherFailures() {
        let failure = KeyCatError.storage(SQLiteError(extendedCode: 10, message: "disk I/O error", sql: "COMMIT"))
        #expect(failure.code == .storage)
        #expect(failure.message.contains("disk I/O error"))
        let domain = KeyCatError(.outOfStock, "gone")
        #expect(KeyCatError.storage(domain) == domain)
        #expect(KeyCatError.storage(SchemaMigrationError.databaseTooNew(databaseVersion: 9, supportedVersion: 1)).code == .storage)
    }

    @Test("the schema's migration list is numbered without gaps")
    func schema() throws {
        _ = try SchemaMigrator(migrations: KeyCatSchema.migrations)
        #expect(!KeyCatSchema.migrations.isEmpty)
    }
}
