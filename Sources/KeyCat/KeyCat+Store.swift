import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// The database KeyCat's rows live in.
    enum Store: Sendable {
        case sqlite(SQLiteDatabase)
        case postgres(PostgresDatabase)

        /// Whether other servers may share the database, so that what a process would keep in
        /// memory (the toggle budgets) must live in the database instead.
        var sharesServers: Bool {
            if case .postgres = self { return true }
            return false
        }

        /// The database, for code written once over ``SQLDatabase`` (opened into a generic call).
        var database: any SQLDatabase {
            switch self {
            case let .sqlite(database): database
            case let .postgres(database): database
            }
        }

        func close() { database.close() }
    }

    /// The SQLite database, for what only a SQLite file has: online backups, SQLite's integrity
    /// checks, the demo and the synthetic bulk load.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` on a Postgres store (use Postgres's own tools:
    ///   `pg_dump`, replication).
    var database: SQLiteDatabase {
        get throws(KeyCatError) {
            guard case let .sqlite(database) = store else {
                throw KeyCatError.validation("database", "this works on a SQLite database file, not on Postgres")
            }
            return database
        }
    }

    /// What KeyCat reads and writes itself, outside the use cases, made once for the store.
    struct StorePorts: Sendable {
        let auditLog: any AuditLog
        let events: any EventLog
        let schemaVersion: @Sendable () throws -> Int
        let invariants: @Sendable () async throws -> [String]
        let exportOrders: @Sendable (Date, Date) async throws(KeyCatError) -> OrdersExport
        let loadRegistry: @Sendable ([BusinessRegistryEntry], Date, AuditEntry) async throws(KeyCatError) -> Int
        let seedCatalog: @Sendable ([SeedSeller], [(seller: Int, draft: ProductDraft, images: [ProductImage])], Date, AuditEntry)
            async throws(KeyCatError) -> SeedReport

        init<Database: SQLDatabase>(_ database: Database) {
            auditLog = SQLAuditLog(database: database)
            events = SQLEventLog(database: database)
            schemaVersion = { try KeyCatSchema.migrator().currentVersion(of: database) }
            invariants = { try await DatabaseHealth.invariantProblems(database) }
            exportOrders = { since, until throws(KeyCatError) in
                try await SQLOrdersExport(database: database).export(since: since, until: until)
            }
            let registry = SQLBusinessRegistry(database: database)
            loadRegistry = { entries, now, audit throws(KeyCatError) in try await registry.load(entries, at: now, audit: audit) }
            let seeder = CatalogSeeder(database: database)
            seedCatalog = { sellers, products, now, audit throws(KeyCatError) in
                try await seeder.load(sellers: sellers, products: products, at: now, audit: audit)
            }
        }
    }
}
