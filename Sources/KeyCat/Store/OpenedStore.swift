import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// The SQLite database, for what only a SQLite file has: online backups, SQLite's integrity
    /// checks, the demo and the synthetic bulk load.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` on a Postgres store (use Postgres's own tools:
    ///   `pg_dump`, replication).
    var database: SQLiteDatabase {
        get throws(KeyCatError) {
            guard let file = store.file else {
                throw KeyCatError.validation("database", "this works on a SQLite database file, not on Postgres")
            }
            return file
        }
    }
}

/// The store KeyCat opened (``KeyCat/SQLiteStore/Opened``, ``KeyCat/PostgresStore/Opened``):
/// its database, the little each store answers its own way, and — written once, over
/// ``SQLDatabase`` — what KeyCat itself (not a use case) reads and writes in it.
///
/// Each store's configuration builds its opened store (``KeyCat/SQLiteStore/open(_:)``,
/// ``KeyCat/PostgresStore/open(_:)``); nothing above this asks which store it is.
protocol OpenedStore: Sendable {
    associatedtype Database: SQLDatabase

    /// The database the repositories are built on.
    var database: Database { get }
    /// Whether other servers may share the database, so that what a process would keep in
    /// memory (the toggle budgets, the images) must live in the database instead.
    var sharesServers: Bool { get }
    /// The SQLite file, for what only a file has: online backups, SQLite's integrity checks, the
    /// demo and the synthetic bulk load. Nil on Postgres.
    var file: SQLiteDatabase? { get }
    /// The catalog's version (``KeyCat/catalogVersion()``): SQLite's `data_version`, or the
    /// count of Postgres's catalog notifications; nil while a change could go unseen.
    func catalogVersion() throws(KeyCatError) -> Int64?
    /// Tables, indexes, triggers and functions the migrations made that are missing or invalid,
    /// for a store whose file checks do not cover them (Postgres); empty for a SQLite file,
    /// whose schema ``DatabaseHealth`` checks.
    func schemaProblems() async throws -> [String]
}

extension OpenedStore {
    var auditLog: any AuditLog { SQLAuditLog(database: database) }
    var events: any EventLog { SQLEventLog(database: database) }
    var webhookEndpoints: any WebhookEndpointRepository { SQLWebhookEndpointRepository(database: database) }

    func schemaVersion() async throws -> Int { try await KeyCatSchema.migrator().recordedVersion(in: database) }

    func invariantProblems() async throws -> [String] { try await DatabaseHealth.invariantProblems(database) }

    func exportOrders(since: Date, until: Date) async throws(KeyCatError) -> OrdersExport {
        try await SQLOrdersExport(database: database).export(since: since, until: until)
    }

    func loadRegistry(_ entries: [BusinessRegistryEntry], at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Int {
        try await SQLBusinessRegistry(database: database).load(entries, at: now, audit: audit)
    }

    func seedCatalog(sellers: [SeedSeller], products: [(seller: Int, draft: ProductDraft, images: [ProductImage])],
                     at now: Date, audit: AuditEntry) async throws(KeyCatError) -> SeedReport {
        try await CatalogSeeder(database: database).load(sellers: sellers, products: products, at: now, audit: audit)
    }

    /// A webhook delivery worker on this store's database.
    func webhookWorker(events: any EventLog, sender: any WebhookSender, clock: any WallClock,
                       options: WebhookDeliveryOptions) -> WebhookDeliveryWorker<Database> {
        WebhookDeliveryWorker(database: database, log: events, sender: sender, clock: clock, options: options)
    }

    func close() { database.close() }
}
