import KeyCatDomain
import KeyCatInfrastructure

/// Keeping the search index whole: indexing what an older KeyCat (or an older analyzer) left
/// unindexed, rebuilding it online, and proving it matches the catalog.
package struct SearchMaintenance<Database: SQLDatabase>: Sendable {
    private let database: Database

    package init(database: Database) { self.database = database }

    /// The `settings` key that records the analyser version every listing was indexed by.
    static var versionKey: String { "search.analyzer_version" }

    /// Indexes every live listing without a current entry, ``SearchIndex/batchSize`` per
    /// transaction, so readers and writers interleave; returns how many it indexed.
    ///
    /// Once none is left it records the analyser version in `settings`, and later calls (every
    /// write-open) end with that one read: listings are indexed as they are written, so only a
    /// migration or a new analyser leaves work here, and a million-listing catalog is not scanned
    /// at every start.
    ///
    /// - Parameter checkingEveryListing: look for unindexed listings even when the record says
    ///   there are none: after a bulk load that wrote listings without their entries.
    package func catchUp(checkingEveryListing: Bool = false) async throws(KeyCatError) -> Int {
        let recorded = checkingEveryListing ? nil : try await storage {
            try await database.read { connection in
                try connection.queryOne("SELECT value FROM settings WHERE key = ?", [.text(Self.versionKey)]) { $0.bytes(0) }
            }
        }
        if recorded == Self.versionBytes { return 0 }
        var total = 0
        while true {
            let indexed = try await storage {
                try await database.write { connection in
                    let indexed = try SearchIndex.catchUp(limit: SearchIndex.batchSize, on: connection)
                    if indexed < SearchIndex.batchSize {
                        _ = try connection.run(
                            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                            [.text(Self.versionKey), .blob(Self.versionBytes)])
                    }
                    return indexed
                }
            }
            total += indexed
            if indexed < SearchIndex.batchSize { return total }
        }
    }

    /// Withdraws the record that every listing is indexed, before a bulk load that writes
    /// listings without their entries: the next ``catchUp(checkingEveryListing:)`` then looks.
    package func withdrawRecord() async throws(KeyCatError) {
        try await storage {
            try await database.write { _ = try $0.run("DELETE FROM settings WHERE key = ?", [.text(Self.versionKey)]) }
        }
    }

    private static var versionBytes: [UInt8] { Array(String(SearchAnalyzer.version).utf8) }

    /// Rebuilds the index online and repairs whatever `db check` reports: every live listing is
    /// indexed again in id order, one batch per transaction (searches keep answering, each
    /// listing's entries replaced in one step); then, in one last transaction, the entries of
    /// deleted listings go and the vocabulary's counts are recounted from what each listed
    /// listing lends it.
    ///
    /// - Parameter progress: called after each batch with the number indexed so far.
    package func reindex(progress: (Int) -> Void = { _ in }) async throws(KeyCatError) -> Int {
        var after: ProductID?
        var total = 0
        while true {
            let start = after
            let (last, count) = try await storage {
                try await database.write { connection in
                    let last = try SearchIndex.reindex(after: start, limit: SearchIndex.batchSize, on: connection)
                    return (last, try connection.queryOne(
                        "SELECT count(*) FROM products WHERE deleted_at IS NULL AND id > ? AND id <= ?",
                        [.integer(start?.rawValue ?? 0), .integer(last?.rawValue ?? 0)]) { $0.int(0) } ?? 0)
                }
            }
            guard let last else { break }
            total += count
            progress(total)
            after = last
        }
        try await storage { try await database.write { try Self.repairLeftovers(on: $0) } }
        return total
    }

    /// Takes deleted listings' entries out and sets every vocabulary count to what the listed
    /// listings' stored words add up to.
    private static func repairLeftovers(on connection: some SQLConnection) throws {
        for table in ["search_terms", "search_documents"] {
            _ = try connection.run(
                "DELETE FROM \(table) WHERE product_id IN (SELECT id FROM products WHERE deleted_at IS NOT NULL)", [])
        }
        var expected: [String: Int] = [:]
        try connection.forEach("SELECT words FROM search_documents WHERE counted = 1", []) { row in
            for word in row.string(0).split(separator: "\n") { expected[String(word), default: 0] += 1 }
        }
        var stored: [String: Int] = [:]
        try connection.forEach("SELECT kind, word, products FROM search_words", []) { row in
            stored["\(row.string(0)):\(row.string(1))"] = row.int(2)
        }
        for key in Set(expected.keys).union(stored.keys).sorted() where expected[key] ?? 0 != stored[key] ?? 0 {
            let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kind = SearchAnalyzer.VocabularyEntry.Kind(rawValue: parts[0]) else { continue }
            let entry = SearchAnalyzer.VocabularyEntry(kind: kind, display: parts[1], key: parts[1])
            // A word missing from the table comes back with its key as its display.
            _ = try connection.run("""
                INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (word, kind) DO UPDATE SET products = excluded.products
                """, [.text(entry.key), .text(kind.rawValue), .text(entry.display), .text(entry.spelling),
                      entry.initials.map(SQLValue.text) ?? .null, .int(expected[key] ?? 0)])
        }
    }

    /// Where the index and the catalog disagree, each as a sentence for `db check`: a live
    /// listing without its entries or with other terms than its text gives, entries of a listing
    /// that is gone, vocabulary counts that are not what the listed listings lend. None on a database from before search
    /// (`db check` reads an outdated schema as it is; its schema section names what is missing).
    package func problems(limit: Int = 20) async throws(KeyCatError) -> [String] {
        try await storage {
            try await database.read { connection in
                guard try connection.hasTable("search_terms") else { return [] }
                var problems: [String] = []
                var expectedWords: [String: Int] = [:]
                var after: Int64 = 0
                while true {
                    let products = try connection.query(
                        "SELECT \(ProductRow.columns) FROM products WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT 1000",
                        [.integer(after)], ProductRow.decode)
                    guard let last = products.last else { break }
                    after = last.id.rawValue
                    var stored: [Int64: [String: Int]] = [:]
                    try connection.forEach(
                        "SELECT product_id, term, weight FROM search_terms WHERE product_id BETWEEN ? AND ?",
                        [.integer(products[0].id.rawValue), .integer(last.id.rawValue)]) { row in
                        stored[row.int64(0), default: [:]][row.string(1)] = row.int(2)
                    }
                    for product in products {
                        let entry = SearchIndex.Entry(product)
                        if product.isListed {
                            for word in entry.vocabulary { expectedWords["\(word.kind.rawValue):\(word.key)", default: 0] += 1 }
                        }
                        if stored[product.id.rawValue] ?? [:] != entry.terms, problems.count < limit {
                            problems.append("product \(product.id): its search terms do not match its text (run 'keycat-admin search reindex')")
                        }
                    }
                }
                try connection.forEach("""
                    SELECT DISTINCT t.product_id FROM search_terms t JOIN products p ON p.id = t.product_id
                    WHERE p.deleted_at IS NOT NULL
                    """, []) { row in
                    if problems.count < limit { problems.append("product \(row.int64(0)): deleted but still has search terms") }
                }
                try connection.forEach("SELECT word, kind, products FROM search_words WHERE products > 0", []) { row in
                    let key = "\(row.string(1)):\(row.string(0))"
                    if expectedWords.removeValue(forKey: key) != row.int(2), problems.count < limit {
                        problems.append("search vocabulary «\(row.string(0))» (\(row.string(1))) counts \(row.int(2)) listings, not what the catalog has")
                    }
                }
                for key in expectedWords.keys.sorted().prefix(max(0, limit - problems.count)) {
                    problems.append("search vocabulary lacks «\(key)»")
                }
                return problems
            }
        }
    }
}
