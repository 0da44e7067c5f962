import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// What a seeding run did.
package struct SeedReport: Sendable, Equatable {
    package var sellersCreated = 0
    package var sellersExisting = 0
    package var productsCreated = 0
    package var productsExisting = 0

    package init() {}
}

/// A seller to create if missing, for seeding.
package struct SeedSeller: Sendable {
    package var email: String
    package var nick: String

    package init(email: String, nick: String) {
        self.email = email
        self.nick = nick
    }
}

/// Loads catalogs in bulk: the demo catalog, imports, and synthetic catalogs for benchmarks.
///
/// Seed sellers are created as locked accounts (their password hash is `!`, which no password
/// verifies), since nobody is meant to log in as them; products are validated by the caller.
/// Loading is idempotent: a seller is matched by email, a product by seller and title, so
/// running the same seed twice changes nothing.
package struct CatalogSeeder<Database: SQLDatabase>: Sendable {
    private let database: Database

    package init(database: Database) { self.database = database }

    /// Creates the missing sellers and listings, all in one transaction. On Postgres a load
    /// that adds a tenth of the catalog or more ends by gathering the statistics its searches
    /// are planned from (``needsStatistics(created:estimate:)``).
    ///
    /// - Parameter products: validated drafts, each with the index of its seller in `sellers`.
    package func load(
        sellers: [SeedSeller], products: [(seller: Int, draft: ProductDraft, images: [ProductImage])],
        at now: Date, audit: AuditEntry
    ) async throws(KeyCatError) -> SeedReport {
        try await storage {
            try await database.write { connection in
                var report = SeedReport()
                var sellerIDs: [UserID] = []
                for seller in sellers {
                    let (id, created) = try Self.ensureSeller(seller, at: now, on: connection)
                    sellerIDs.append(id)
                    if created { report.sellersCreated += 1 } else { report.sellersExisting += 1 }
                }
                for product in products {
                    let sellerID = sellerIDs[product.seller]
                    let exists = try connection.queryOne(
                        "SELECT 1 FROM products WHERE seller_id = ? AND title = ? AND deleted_at IS NULL",
                        [.integer(sellerID.rawValue), .text(product.draft.title)]) { _ in true } ?? false
                    if exists {
                        report.productsExisting += 1
                    } else {
                        _ = try ProductRow.insert(product.draft, sellerID: sellerID, images: product.images, at: now, on: connection)
                        report.productsCreated += 1
                    }
                }
                if connection.dialect.store == .postgres, report.productsCreated > Self.statisticsThreshold {
                    // The planner's own estimate of the rows, a read of the system catalog: a
                    // count would lock the whole of `products` against every serializable write
                    // beside the import (checkout's stock, sellers' edits) until it commits.
                    let estimate = try connection.queryOne(
                        "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'products'::regclass", []) { $0.int(0) } ?? 0
                    if Self.needsStatistics(created: report.productsCreated, estimate: estimate) {
                        try Self.gatherStatistics(of: Self.plannedTables, on: connection)
                    }
                }
                var entry = audit
                entry.detail = "\(report.productsCreated) products and \(report.sellersCreated) sellers created"
                try AuditLogTable.insert(entry, on: connection)
                return report
            }
        }
    }

    /// The tables a load fills whose statistics Postgres plans a search's statements from: it
    /// plans them once for every query (a generic plan), and with no statistics for
    /// `search_terms` a page of a common word read every posting (docs/search.md, "Postgres").
    static var plannedTables: [String] { ["products", "search_documents", "search_words", "search_terms"] }

    /// Autovacuum's threshold of changed rows before it gathers a table's statistics, besides a
    /// tenth of the rows (`autovacuum_analyze_threshold`, `autovacuum_analyze_scale_factor`).
    static var statisticsThreshold: Int { 50 }

    /// Whether a load that created `created` listings in a catalog of about `estimate` rows
    /// before it (Postgres's estimate, `pg_class.reltuples`) should gather Postgres's
    /// statistics before it commits rather than leave them to autovacuum, which may come
    /// minutes later: by autovacuum's own rule, more than 50 rows and a tenth of the table. So
    /// an import into a new or small shop plans its searches from its rows at once, and a few
    /// listings added to a big catalog cost nothing.
    static func needsStatistics(created: Int, estimate: Int) -> Bool {
        created > statisticsThreshold + estimate / 10
    }

    /// `ANALYZE` of `tables`, in the load's transaction (Postgres counts its own new rows).
    static func gatherStatistics(of tables: [String], on connection: some SQLConnection) throws {
        try connection.execute("ANALYZE " + tables.joined(separator: ", "))
    }

    /// The id of the live user with the seller's email, creating a locked seller account when
    /// there is none.
    ///
    /// - Throws: a validation error when the email belongs to a user who is not a seller.
    static func ensureSeller(_ seller: SeedSeller, at now: Date, on connection: some SQLConnection) throws -> (UserID, Bool) {
        let email = seller.email.lowercased()
        if let (id, role) = try connection.queryOne(
            "SELECT id, role FROM users WHERE email = ? AND withdrawn_at IS NULL", [.text(email)], { ($0.int64(0), $0.string(1)) }) {
            guard role == Role.seller.rawValue else {
                throw KeyCatError.validation("sellers", "\(email) belongs to a \(role), not a seller")
            }
            return (UserID(id), false)
        }
        let millis = StoredTime.milliseconds(now)
        let id = try connection.insertReturningID(
            "INSERT INTO users (email, nick, password_hash, role, created_at, updated_at) VALUES (?, ?, '!', 'seller', ?, ?)",
            [.text(email), .text(seller.nick), .integer(millis), .integer(millis)])
        return (UserID(id), true)
    }
}
