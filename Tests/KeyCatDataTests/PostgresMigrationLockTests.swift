import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// On Postgres a migration's waits for a lock end as the migrator's `lockWait` says: each
/// attempt sets `lock_timeout`, whose expiry begins the migration again, as SQLite's busy
/// timeout does (`SchemaMigratorLockWaitTests`).
@Suite("Postgres migrations: waiting for the migration lock", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresMigrationLockTests {
    @Test("a migration lock another session holds for all of the migrator's wait is a clear error, with nothing applied; released, it is taken")
    func givesUpAfterItsWait() async throws {
        try await withPostgresSchema { configuration in
            let database = try PostgresDatabase(configuration: configuration)
            defer { database.close() }
            // Another server migrating this schema: it holds the lock every migration takes first.
            let other = try PostgresConnection(configuration: configuration)
            defer { other.close() }
            try other.execute("SELECT pg_advisory_lock(\(0x4B43_4154), hashtext(current_schema()))")
            var migrator = KeyCatSchema.migrator(on: PostgresConnection.self)
            migrator.lockWait = .seconds(3)
            #expect(throws: SchemaMigrationError.lockWaitExpired(version: 1, waited: .seconds(3))) {
                try migrator.migrate(database)
            }
            #expect(try migrator.currentVersion(of: database) == 0)
            try other.execute("SELECT pg_advisory_unlock(\(0x4B43_4154), hashtext(current_schema()))")
            #expect(try migrator.migrate(database).count == migrator.migrations.count)
        }
    }
}
