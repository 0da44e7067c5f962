import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Generates large, plausible catalogs fast, for benchmarks and load tests: the same seed gives
/// the same catalog. Products go in batches of 5,000 per transaction; for big loads the list
/// indexes are dropped first and rebuilt at the end (one sort per index instead of a million
/// scattered inserts) in the load's last transaction.
///
/// The listings' search entries (``SearchIndex``) are gathered in memory and written in bulk
/// (``SearchIndex/Bulk``) every ``searchFlushSize`` listings, in the transaction of the batch
/// that reaches it, and at the end (``finish(rebuilding:keys:analysing:search:count:seed:audit:on:)``): one
/// append to each term's postings per flush instead of one per listing, about a kilobyte of
/// memory a listing until then. A load of up to a million listings is one flush, in key order
/// into each term's range, which is what makes it cheap: a later flush inserts into the middle
/// of every range it touches. Until its flush a listing is not found by search; a load killed
/// in between leaves listings without search entries, which the next write-open indexes
/// (``SearchMaintenance/catchUp()``), as it does a listing an older KeyCat wrote. On SQLite the
/// next batch's listings are generated and analysed (``SearchIndex/Entry``) while the writer
/// stores this one, so the analysis takes the second core rather than the writer's time; on
/// Postgres each round trip's listings are analysed on every core, while the server waits.
///
/// Crash safety on SQLite: the drop commits with the first batch, so a load killed in between
/// leaves the indexes missing. That state is durable and self-describing: the indexes are named
/// by the migrations (``ExpectedSchema``), `db check` reports each one missing, and every
/// write-open (`init`, the next `seed`, any server start) recreates them in one transaction.
/// On Postgres, whose schema changes are transactional, a load that rebuilds the indexes is one
/// transaction from the drop to the rebuild, the search tables' primary and foreign keys dropped
/// and added back with them: killed in between, it leaves nothing behind.
package struct SyntheticCatalog<Database: SQLDatabase>: Sendable {
    /// At this many products or more, indexes are rebuilt rather than kept up to date, unless a
    /// loader is given another threshold.
    package static var defaultRebuildThreshold: Int { 50_000 }
    private static var batchSize: Int { 5_000 }
    private static var sellerCount: Int { 50 }
    /// Listings whose search entries are written together: some 70 postings of 8 bytes and a
    /// document's two texts each, about 1 GB of memory for a million.
    static var searchFlushSize: Int { 1_000_000 }
    private let database: Database
    /// From how many products this loader rebuilds the indexes.
    private let rebuildThreshold: Int

    /// - Parameter rebuildThreshold: from how many products to rebuild the indexes; a lower one
    ///   than ``defaultRebuildThreshold`` lets a test take that path with a catalog that loads
    ///   in seconds rather than minutes.
    package init(database: Database, rebuildThreshold: Int = Self.defaultRebuildThreshold) {
        self.database = database
        self.rebuildThreshold = rebuildThreshold
    }

    /// The tables whose indexes a big load drops and rebuilds. `search_terms` has none but its
    /// key, which the postings are written in the order of.
    private static func rebuiltTables(indexingSearch: Bool) -> [String] {
        ["products"] + (indexingSearch ? ["search_documents", "search_words"] : [])
    }

    /// Adds `count` generated listings (and up to 50 synthetic sellers).
    ///
    /// - Parameters:
    ///   - indexingSearch: whether to write the listings' search entries (a benchmark leaves
    ///     them out to time the catalog alone; the next write-open then indexes them).
    ///   - progress: called after each batch with the number loaded so far.
    package func load(count: Int, seed: UInt64, at now: Date, audit: AuditEntry, indexingSearch: Bool = true,
                      progress: (Int) -> Void = { _ in }) async throws(KeyCatError) -> SeedReport {
        var generator = SplitMix64(seed: seed)
        var report = SeedReport()
        let rebuild = count >= rebuildThreshold
        let tables = Self.rebuiltTables(indexingSearch: indexingSearch)
        let indexes: [(name: String, sql: String)] = rebuild ? try await storage { try await database.read { connection in
            try tables.flatMap { table in
                try connection.query(connection.dialect.indexesOfTable, [.text(table)]) { ($0.string(0), $0.string(1)) }
            }
        } } : []
        let keys = rebuild && indexingSearch ? try await storage { try await database.read { connection in
            try Self.searchKeys(on: connection)
        } } : []
        // Batches on SQLite, whose single writer others wait for; else one transaction (see above).
        let dialect = Database.Connection.dialect
        let analysed = rebuild && !dialect.hasOneWriter ? (indexingSearch ? CatalogSeeder<Database>.plannedTables : tables) : []
        let batchSize = rebuild && !dialect.hasOneWriter ? count : Self.batchSize
        let sellerIDs: [UserID] = try await storage { try await database.write { connection in
            try (1...Self.sellerCount).map { number in
                let seller = SeedSeller(email: "synthetic-seller-\(number)@example.com", nick: "합성셀러\(number)")
                let (id, created) = try CatalogSeeder<Database>.ensureSeller(seller, at: now, on: connection)
                if created { report.sellersCreated += 1 } else { report.sellersExisting += 1 }
                return id
            }
        } }
        var loaded = 0
        var baseTime = now.addingTimeInterval(-Double(count))  // one listing a second up to now
        var search = SearchIndex.Bulk()
        search.expectedListings = indexingSearch ? min(count, Self.searchFlushSize) : 0
        // SQLite: the listings of the batch after the one being written, and their entries.
        var upcoming = dialect.hasRoundTrips ? [] : Self.generate(min(batchSize, count), sellers: sellerIDs, generator: &generator)
        var analysis = Self.analyse(upcoming, indexingSearch)
        while loaded < count {
            let batch = min(batchSize, count - loaded)
            let isFirst = loaded == 0
            let isLast = loaded + batch == count
            let final = report
            let listings = upcoming
            let entries = await analysis.value
            if !dialect.hasRoundTrips && !isLast {
                upcoming = Self.generate(min(batchSize, count - loaded - batch), sellers: sellerIDs, generator: &generator)
                analysis = Self.analyse(upcoming, indexingSearch)
            }
            // A Postgres write may run again after losing a race: it starts from the same state,
            // kept here. SQLite's runs once, so nothing is kept: a copy of the state would share
            // the search entries' buffers, and the batch's first `add` would copy all of them
            // (at a million listings, up to 544 MB of postings and a million documents per batch
            // of 5,000, 200 times over).
            // `READ COMMITTED`: the load only adds rows (ids from the sequence), reading nothing
            // it decides on, and a big Postgres load is one transaction of a minute or more. Run
            // `SERIALIZABLE`, it kept Postgres tracking every serializable transaction that
            // committed beside it, and other writes on the server failed with false
            // serialization conflicts until they ran out of retries.
            let start = dialect.hasRoundTrips ? (generator, baseTime, search) : nil
            report = try await storage { try await database.write(isolation: .readCommitted) { connection in
                if let start { (generator, baseTime, search) = start }
                if rebuild && isFirst {
                    for index in indexes { _ = try connection.run("DROP INDEX \(index.name)", []) }
                    // Foreign keys first: a primary key goes after anything that depends on it.
                    for key in keys.reversed() { _ = try connection.run("ALTER TABLE \(key.table) DROP CONSTRAINT \(key.name)", []) }
                }
                if dialect.hasRoundTrips {
                    try Self.insertInRoundTrips(batch, sellers: sellerIDs, generator: &generator, from: &baseTime,
                                                search: &search, indexingSearch: indexingSearch, on: connection)
                } else {
                    for (index, listing) in listings.enumerated() {
                        let product = try ProductRow.insert(listing.draft, sellerID: listing.seller, images: [], at: baseTime,
                                                            indexingSearch: false, on: connection)
                        if indexingSearch { search.add(product.id, entries[index]) }
                        baseTime.addTimeInterval(1)
                    }
                }
                // The last batch leaves its flush to the last step, which may run outside it.
                if search.count >= Self.searchFlushSize && !isLast {
                    try search.write(on: connection)
                    search.expectedListings = min(count - loaded - batch, Self.searchFlushSize)
                }
                if isLast && dialect.hasRoundTrips {
                    try Self.finish(rebuilding: indexes, keys: keys, analysing: analysed, search: &search, count: count, seed: seed,
                                    audit: audit, on: connection)
                }
                var updated = final
                updated.productsCreated += batch
                return updated
            } }
            loaded += batch
            progress(loaded)
        }
        if !dialect.hasRoundTrips {
            try await storage { try await database.withConnection { connection in
                try connection.run("PRAGMA foreign_keys = OFF", [])
                defer { _ = try? connection.run("PRAGMA foreign_keys = ON", []) }
                try connection.transaction(isolation: .serializable) { connection in
                    try Self.finish(rebuilding: indexes, keys: keys, analysing: analysed, search: &search, count: count, seed: seed,
                                    audit: audit, on: connection)
                }
            } }
        }
        return report
    }

    /// The load's last step: the search entries not yet written, the indexes dropped for it, and
    /// the audit entry. On Postgres it ends the load's one transaction. On SQLite it is a
    /// transaction of its own after the listings' batches, with foreign keys unchecked
    /// (`PRAGMA foreign_keys` changes only between transactions): its postings and documents
    /// refer to listings this load has just committed, and checking each of some 68 million
    /// postings against `products` cost two thirds of writing it. It writes them before the
    /// indexes are rebuilt, so each index is one sort rather than scattered inserts; the
    /// postings need none (their key is written in order, and a listing's own postings are
    /// found from its forward terms, written in its document). Killed before it commits, the
    /// load leaves listings without search entries and the indexes missing, which the next
    /// write-open mends (see above). On Postgres the search tables' keys, dropped with the
    /// indexes, are added back here (``searchKeys(on:)``), each primary key before its table's
    /// foreign keys, and a big load ends by gathering the statistics of the tables it filled
    /// (`ANALYZE`, `analysed`). Postgres plans a search's statements once for every query (a
    /// generic plan) from those statistics, and autovacuum had still not gathered any for
    /// `search_terms` minutes after a million-listing load: meanwhile a page of `갈축` read all
    /// 68 million postings, 2.3 s, where with them it reads its 2,000.
    private static func finish(
        rebuilding indexes: [(name: String, sql: String)], keys: [SearchKey], analysing analysed: [String],
        search: inout SearchIndex.Bulk,
        count: Int, seed: UInt64, audit: AuditEntry, on connection: Database.Connection
    ) throws {
        if search.count > 0 { try search.write(on: connection) }
        for key in keys {
            _ = try connection.run("ALTER TABLE \(key.table) ADD CONSTRAINT \(key.name) \(key.definition)", [])
        }
        // SQLite's sorter merges each rebuild on helper threads too, on the cores the analysis
        // has finished with; the writer's later statements go back to sorting alone.
        let helpers = connection.dialect.hasOneWriter ? ProcessInfo.processInfo.activeProcessorCount - 1 : 0
        if helpers > 0 { try connection.execute("PRAGMA threads = \(helpers)") }
        defer { if helpers > 0 { try? connection.execute("PRAGMA threads = 0") } }
        for index in indexes { _ = try connection.run(index.sql, []) }
        if !analysed.isEmpty { try CatalogSeeder<Database>.gatherStatistics(of: analysed, on: connection) }
        var entry = audit
        entry.detail = "\(count) synthetic products (seed \(seed))"
        try AuditLogTable.insert(entry, on: connection)
    }

    /// `count` listings and their sellers, in the generator's order (a draft, then its seller).
    static func generate(_ count: Int, sellers: [UserID], generator: inout SplitMix64) -> [(draft: ProductDraft, seller: UserID)] {
        (0..<count).map { _ in
            let draft = SyntheticProduct.draft(using: &generator)
            return (draft, sellers[Int(generator.next() % UInt64(sellers.count))])
        }
    }

    /// The listings' search entries, analysed off the writer's thread (none when not indexing).
    private static func analyse(_ listings: [(draft: ProductDraft, seller: UserID)], _ indexingSearch: Bool) -> Task<[SearchIndex.Entry], Never> {
        Task {
            guard indexingSearch else { return [] }
            return listings.map(entry)
        }
    }

    /// A listing's search entry.
    static func entry(_ listing: (draft: ProductDraft, seller: UserID)) -> SearchIndex.Entry {
        SearchIndex.Entry(title: listing.draft.title, content: listing.draft.content, tags: listing.draft.tags, spec: listing.draft.spec)
    }
}
