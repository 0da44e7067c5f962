import KeyCatDomain
import KeyCatInfrastructure

/// `db check`'s part of keeping the index whole: proving it is the catalog's.
extension SearchMaintenance {
    /// Where the index and the catalog disagree, each as a sentence for `db check`: a live
    /// listing without its entries or with other terms than its text gives, postings that are
    /// not what a listing's forward terms say, entries of a listing that is gone, vocabulary
    /// counts that are not what the listed listings lend, units sold that are not what the paid
    /// orders add up to. None on a database from before search
    /// or before its forward index (`db check` reads an outdated schema as it is; its schema
    /// section names what is missing).
    ///
    /// Two checks prove the index is the catalog's. Each live listing's forward terms
    /// (`search_documents.terms`) are what its text gives, 1,000 listings at a time. And the
    /// postings are every document's forward terms exactly: the ``SearchPostingDigest`` of
    /// `search_terms`, read once in key order, is that of the forward terms. The cost is a read
    /// of every live listing and its document, one of `search_terms`, and a hash per posting;
    /// no posting is sought by its key. Only when the digests differ is each forward term's
    /// posting sought, 1,000 listings' in one statement, to name the listings whose postings are
    /// wrong and count the postings that are no listing's (`search_terms` has no index by
    /// listing to read a listing's postings from).
    package func problems(limit: Int = 20) async throws(KeyCatError) -> [String] {
        try await storage {
            try await database.read { connection in
                guard try connection.hasTable("search_terms"), try connection.hasColumn("terms", of: "search_documents") else {
                    return []
                }
                var problems: [String] = []
                func report(_ problem: String) { if problems.count < limit { problems.append(problem) } }
                var expectedWords: [String: Int] = [:]
                var forwardPostings = SearchPostingDigest()
                var after: Int64 = 0
                while true {
                    let products = try connection.query(
                        "SELECT \(ProductRow.columns) FROM products WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT 1000",
                        [.integer(after)], ProductRow.decode)
                    guard let last = products.last else { break }
                    after = last.id.rawValue
                    var forward: [Int64: String] = [:]
                    try connection.forEach(
                        "SELECT product_id, terms FROM search_documents WHERE product_id BETWEEN ? AND ?",
                        [.integer(products[0].id.rawValue), .integer(last.id.rawValue)]) { row in
                        forward[row.int64(0)] = row.string(1)
                    }
                    for product in products {
                        let entry = SearchIndex.Entry(product)
                        if product.isListed {
                            for word in entry.vocabulary { expectedWords["\(word.kind.rawValue):\(word.key)", default: 0] += 1 }
                        }
                        let terms = forward[product.id.rawValue]
                        if terms != SearchIndex.storedTerms(sorted: entry.terms) {
                            report("product \(product.id): its search terms do not match its text (run 'keycat-admin search reindex')")
                        }
                        if let terms { forwardPostings.add(forwardTerms: terms, of: product.id.rawValue) }
                    }
                }
                try connection.forEach("""
                    SELECT d.product_id, d.terms FROM search_documents d JOIN products p ON p.id = d.product_id
                    WHERE p.deleted_at IS NOT NULL ORDER BY d.product_id
                    """, []) { row in
                    report("product \(row.int64(0)): deleted but still has search terms")
                    forwardPostings.add(forwardTerms: row.string(1), of: row.int64(0))
                }
                if try SearchPostingDigest.ofPostings(on: connection) != forwardPostings {
                    try Self.postingDifferences(on: connection, report: report)
                }
                try connection.forEach(Self.unitsSoldMismatchSQL, [.int(limit)]) { row in
                    let counted = "\(row.int(1)) units sold for \(Money(won: row.int64(2)))"
                    let standing = "\(row.int(3)) for \(Money(won: row.int64(4)))"
                    report("product \(row.int64(0)): search counts \(counted), its standing sales \(standing) (run 'keycat-admin search reindex')")
                }
                try connection.forEach("SELECT word, kind, products FROM search_words WHERE products > 0", []) { row in
                    let key = "\(row.string(1)):\(row.string(0))"
                    if expectedWords.removeValue(forKey: key) != row.int(2) {
                        report("search vocabulary «\(row.string(0))» (\(row.string(1))) counts \(row.int(2)) listings, not what the catalog has")
                    }
                }
                for key in expectedWords.keys.sorted().prefix(max(0, limit - problems.count)) {
                    problems.append("search vocabulary lacks «\(key)»")
                }
                return problems
            }
        }
    }

    /// The documents whose units sold, or their value, are not what their listings' standing
    /// sales add up to (``SearchIndex/standingSale``), in id order: one aggregate of those
    /// lines, joined to every document.
    private static var unitsSoldMismatchSQL: String { """
        SELECT d.product_id, d.units_sold, d.value_sold, coalesce(s.units, 0), coalesce(s.value, 0) FROM search_documents d
        LEFT JOIN (SELECT l.product_id, sum(l.quantity) AS units, sum(l.unit_price * l.quantity) AS value
                   FROM order_lines l JOIN orders o ON o.id = l.order_id
                   WHERE \(SearchIndex.standingSale) GROUP BY l.product_id) s ON s.product_id = d.product_id
        WHERE d.units_sold <> coalesce(s.units, 0) OR d.value_sold <> coalesce(s.value, 0) ORDER BY d.product_id LIMIT ?
        """ }

    /// Reports each listing whose postings are not its document's forward terms, and how many
    /// postings are no document's: every document's forward terms sought in `search_terms` by
    /// their keys, 1,000 documents at a time, then the postings counted. For when the digests
    /// of the two differ.
    private static func postingDifferences(on connection: some SQLConnection, report: (String) -> Void) throws {
        var forwardPostings = 0
        var missingPostings = 0
        var found = false
        try SearchIndex.forEachForwardTermsPage(on: connection) { documents in
            let check = try postingsMissing(from: documents, on: connection)
            forwardPostings += check.postings
            missingPostings += check.missing
            for id in check.listings {
                report("product \(id): its postings in the search index are not its search terms (run 'keycat-admin search reindex')")
                found = true
            }
        }
        // Postings that are no document's forward terms: of a listing without a document (one
        // written behind the index's back), or a term its document does not have.
        let strays = try postingCount(on: connection) - (forwardPostings - missingPostings)
        if strays != 0 {
            report("the search index has \(strays) posting(s) that are no listing's search terms (run 'keycat-admin search reindex')")
            found = true
        }
        // Never expected: the digests differ over postings that agree, in one snapshot. Said
        // rather than passed over, so that a check that is wrong cannot pass as a healthy index.
        if !found { report("the search index's digest differs from its forward terms', but no posting was found wrong") }
    }

    /// Which of `documents`' listings lack a posting of their forward terms or have it with
    /// another weight, how many postings the forward terms have and how many of them
    /// `search_terms` lacks: every posting sought by its key, in one statement (the forward
    /// terms travel as a JSON array of `[term, id, weight]`).
    private static func postingsMissing(from documents: [(id: Int64, terms: String)], on connection: some SQLConnection) throws
        -> (listings: [Int64], postings: Int, missing: Int) {
        var json = "["
        var postings = 0
        for document in documents {
            for (term, weight) in SearchIndex.parseTerms(document.terms) {
                json += postings == 0 ? "[" : ",["
                JSONString.append(term, to: &json)
                json += ",\(document.id),\(weight)]"
                postings += 1
            }
        }
        json += "]"
        guard postings > 0 else { return ([], 0, 0) }
        var listings: Set<Int64> = []
        var missing = 0
        // A join, not a scalar subquery a filter names twice: Postgres would run it per mention.
        try connection.forEach("""
            SELECT CAST(f.value ->> 1 AS bigint), t.weight FROM \(connection.dialect.rowsFromJSON)
            LEFT JOIN search_terms t ON t.term = f.value ->> 0 AND t.product_id = CAST(f.value ->> 1 AS bigint)
            WHERE t.weight IS NULL OR t.weight <> CAST(f.value ->> 2 AS integer)
            """, [.text(json)]) { row in
            listings.insert(row.int64(0))
            if row.isNull(1) { missing += 1 }
        }
        return (listings.sorted(), postings, missing)
    }
}
