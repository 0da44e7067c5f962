import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// Each store's failures become the domain's errors in one funnel (``KeyCatError/storage(_:)``),
/// which asks a ``DatabaseError`` what it is rather than casting to a store's type.
@Suite("Storage errors in domain terms")
struct StorageErrorTests {
    @Test("a unique violation is one a DatabaseError answers for, and becomes a duplicate keeping the store's code",
          arguments: TestStore.allCases)
    func duplicate(_ store: TestStore) async throws {
        try await store.withDatabases { databases in try await checkDuplicate(databases[0], store) }
    }

    private func checkDuplicate(_ database: some SQLDatabase, _ store: TestStore) async throws {
        try await database.write { try $0.execute("CREATE TABLE t (x INTEGER UNIQUE); INSERT INTO t VALUES (1);") }
        do {
            try await database.write { try $0.execute("INSERT INTO t VALUES (1)") }
            Issue.record("duplicate accepted")
        } catch {
            let asked = try #require(error as? any DatabaseError)
            #expect(asked.isUniqueViolation && !asked.isCancelled && !asked.isNotADatabase)
            let domain = KeyCatError.storage(error)
            #expect(domain.code == .duplicate)
            #expect(store == .sqlite ? domain.context["sqlite_code"] == "2067" : domain.context["sql_state"] == "23505", "\(domain)")
        }
    }

    @Test("a statement stopped for a cancelled task is a storage error that says it changed nothing, on either store")
    func cancelled() {
        let sqlite = KeyCatError.storage(SQLiteError(extendedCode: 9, message: "interrupted", sql: "SELECT 1"))
        let postgres = KeyCatError.storage(PostgresError.server(
            sqlState: "57014", message: "canceling statement due to user request", detail: nil, hint: nil, constraint: nil,
            statement: "SELECT pg_sleep(60)", connectionIsBroken: false))
        for error in [sqlite, postgres] {
            #expect(error.code == .storage && error.message.contains("changed nothing"), "\(error)")
        }
        #expect(sqlite.context["sqlite_code"] == "9" && postgres.context["sql_state"] == "57014")
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
