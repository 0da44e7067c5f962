import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// What the search index costs the writes, on SQLite: a listing's write with its search entries
/// against the same write without them (KeyCat's own code both ways: the row, its ledger
/// movement and its audit entry, in one transaction), a seller's edit of one word of a title
/// with its re-index against the same edit without it, and the synthetic catalog built with the
/// index against the same catalog built without it. Here "keycat" is the write with search and
/// "raw" the write without: the ratio is what search adds (issue 42: ≤ 1.3 and ≤ 2).
struct SearchIndexScenarios {
    let databasePath: String
    let directory: URL
    let productCount: Int
    /// How long the catalog with its search index took to build.
    let buildSeconds: Double
    let operations: Int
    let log: (String) -> Void

    func run() async throws -> [Comparison] {
        var rows: [Comparison] = []
        for synchronous in [SQLiteConfiguration.Synchronous.full, .normal] {
            rows.append(try await write(synchronous))
        }
        rows.append(try await edit(.full))
        rows.append(try await edit(.normal))
        rows.append(try await build())
        return rows
    }

    private func write(_ synchronous: SQLiteConfiguration.Synchronous) async throws -> Comparison {
        var configuration = SQLiteConfiguration()
        configuration.synchronous = synchronous
        let connection = try SQLiteConnection(path: databasePath, configuration: configuration)
        let seller = UserID(try connection.queryOne("SELECT id FROM users WHERE role = 'seller' ORDER BY id LIMIT 1", []) {
            $0.int64(0)
        } ?? 1)
        var generator = SplitMix64(seed: synchronous == .full ? 1_001 : 1_002)
        let now = Date()
        func insert(indexing: Bool) throws {
            let draft = SyntheticProduct.draft(using: &generator)
            try connection.transaction(isolation: .serializable) { connection in
                let product = try ProductRow.insert(draft, sellerID: seller, images: [], at: now, indexingSearch: indexing,
                                                    on: connection)
                _ = try AuditLogTable.insert(AuditEntry(actor: "seller:\(seller)", action: "product.create",
                                                        target: "product:\(product.id)", detail: draft.title, at: now), on: connection)
            }
        }
        return try await compare("write: listing + search entries ÷ listing (\(synchronous.rawValue))",
                                 operations: min(operations, 1_000), warmup: 20, target: .timeRatioAtMost(1.3),
                                 library: { _ in try insert(indexing: true) }, baseline: { _ in try insert(indexing: false) })
    }

    /// A seller's edit that adds one word to a listing's title (`재입고`, "restocked", a word no
    /// synthetic listing has), each to a different listing of the catalog, as
    /// ``SQLProductRepository`` writes it: the row, its ledger movement and its audit entry,
    /// and with search the postings of the terms that changed, the document and the vocabulary's
    /// counts. Price and stock changes are not a row here: they write no search entry at all.
    private func edit(_ synchronous: SQLiteConfiguration.Synchronous) async throws -> Comparison {
        var configuration = SQLiteConfiguration()
        configuration.synchronous = synchronous
        let connection = try SQLiteConnection(path: databasePath, configuration: configuration)
        let count = min(operations, 1_000)
        let warmup = 20
        // Listings spread over the catalog, each edited once, alternately with and without search.
        let stride = max(1, productCount / (2 * (count + warmup) + 1))
        var listings: [Product] = []
        try connection.forEach("SELECT id FROM products WHERE listed = 1 AND id % ? = 0 ORDER BY id LIMIT ?",
                               [.int(stride), .int(2 * (count + warmup))]) { row in
            if let product = try ProductRow.find(ProductID(row.int64(0)), on: connection) { listings.append(product) }
        }
        guard listings.count == 2 * (count + warmup) else {
            throw KeyCatError(.internalError, "the catalog has \(listings.count) listings to edit, not \(2 * (count + warmup))")
        }
        let now = Date()
        func edit(_ index: Int, reindexing: Bool) throws {
            var product = listings[index]
            let version = product.version
            product.title += " 재입고"
            try connection.transaction(isolation: .serializable) { connection in
                let actor = "seller:\(product.sellerID)"
                _ = try ProductRow.update(product, expectedVersion: version, at: now, actor: actor, indexingSearch: reindexing,
                                          on: connection)
                _ = try AuditLogTable.insert(AuditEntry(actor: actor, action: "product.update", target: "product:\(product.id)",
                                                        detail: product.title, at: now), on: connection)
            }
        }
        // Every call, with search or without, takes the next listing: `compare` passes indexes
        // that start again after its warm-up.
        var edited = 0
        func editNext(reindexing: Bool) throws {
            try edit(edited, reindexing: reindexing)
            edited += 1
        }
        return try await compare("edit: one word of a title + re-index ÷ the edit (\(synchronous.rawValue))",
                                 operations: count, warmup: warmup, target: .timeRatioAtMost(1.3),
                                 library: { _ in try editNext(reindexing: true) },
                                 baseline: { _ in try editNext(reindexing: false) })
    }

    /// The same catalog (same seed) in a file of its own, without search entries.
    private func build() async throws -> Comparison {
        let path = directory.appendingPathComponent("without-search.db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try BulkLoadScenario.createSchema(at: path)
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        return try await Self.buildWithoutSearch(productCount, into: database, against: buildSeconds, log: log)
    }

    /// The build row on either store: the synthetic catalog (seed 42) loaded into `database`
    /// without search entries, timed from `prepare` (what the empty database still needs), against
    /// `buildSeconds` for the same catalog with them.
    static func buildWithoutSearch<Database: SQLDatabase>(
        _ productCount: Int, into database: Database, against buildSeconds: Double, log: (String) -> Void,
        prepare: () async throws -> Void = {}
    ) async throws -> Comparison {
        log("building the same catalog without its search index…")
        let seconds = try await seconds(ContinuousClock()) {
            try await prepare()
            _ = try await SyntheticCatalog(database: database).load(
                count: productCount, seed: 42, at: Date(), audit: AuditEntry(actor: "bench", action: "catalog.seed_synthetic", at: Date()),
                indexingSearch: false)
        }
        log(String(format: "built without search in %.1f s (with it: %.1f s)", seconds, buildSeconds))
        return Comparison(name: "catalog build: with search index ÷ without", operations: 1,
                          library: Timing(samples: [buildSeconds]), baseline: Timing(samples: [seconds]),
                          target: .timeRatioAtMost(2.0))
    }
}
