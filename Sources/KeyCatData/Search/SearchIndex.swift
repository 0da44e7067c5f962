import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Writes a listing's entries in search's tables (``SearchSchema``), always on a connection that
/// is already in the transaction writing the listing: search is fresh the moment the write
/// returns, on every server sharing the database.
///
/// Only what search reads from the text is kept here. Whether a listing is listed, its price and
/// stock, its rating and bookmarks are read from `products` when a query runs, so a price or
/// stock change, a withdrawal or a seller's suspension needs no index write at all.
package enum SearchIndex {
    /// What a listing's text gives the index.
    struct Entry: Sendable {
        var terms: [String: Int]
        var titleKey: String
        var vocabulary: [SearchAnalyzer.VocabularyEntry]

        init(title: String, content: String, tags: [String], spec: KeyboardSpec) {
            terms = SearchAnalyzer.terms(title: title, content: content, tags: tags, spec: spec)
            titleKey = SearchAnalyzer.titleKey(title)
            vocabulary = SearchAnalyzer.vocabulary(title: title, tags: tags)
        }

        init(_ product: Product) {
            self.init(title: product.title, content: product.content, tags: product.tags, spec: product.spec)
        }
    }

    /// How `search_documents.words` keeps a listing's vocabulary: one `kind:key` per line.
    static func storedWords(_ vocabulary: [SearchAnalyzer.VocabularyEntry]) -> String {
        vocabulary.map { "\($0.kind.rawValue):\($0.key)" }.joined(separator: "\n")
    }

    private static func parseWords(_ text: String) -> [(kind: String, key: String)] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    /// Indexes a listing written in this transaction, replacing what it had.
    static func index(_ product: Product, checkingPostings: Bool = false, on connection: some SQLConnection) throws {
        try index(product.id, Entry(product), listed: product.isListed, checkingPostings: checkingPostings, on: connection)
    }

    /// Writes what changed between the listing's forward terms (`search_documents.terms`, read
    /// with the rest of its document) and the terms `entry` gives: the postings of terms it lost
    /// are deleted, those whose weight changed updated, new ones inserted, each by its key, in
    /// term order (the order two writers take the rows' locks in), and the document keeps the
    /// new forward terms in the same statement that writes the rest of it. An edit that changes
    /// one word writes the few postings of that word's terms, not the listing's seventy.
    ///
    /// - Parameters:
    ///   - listed: whether the listing is listed, and so lends its words to the vocabulary's
    ///     counts.
    ///   - checkingPostings: read what `search_terms` holds for the forward and the new terms
    ///     instead of trusting the forward terms, so a posting deleted or changed behind the
    ///     index's back is written again: for ``SearchMaintenance/reindex(progress:)``.
    static func index(_ id: ProductID, _ entry: Entry, listed: Bool, checkingPostings: Bool = false,
                      on connection: some SQLConnection) throws {
        let previous = try connection.queryOne(
            "SELECT words, counted, terms FROM search_documents WHERE product_id = ?", [.integer(id.rawValue)]) {
            (words: $0.string(0), counted: $0.bool(1), terms: $0.string(2))
        }
        let new = sortedTerms(entry.terms)
        var old = previous.map { parseTerms($0.terms) } ?? []
        if checkingPostings {
            old = try postings(of: id, among: old.map(\.term) + new.map(\.term), on: connection)
        }
        var statements = termChanges(of: id, from: old, to: new, on: connection)
        // A listing indexed for the first time (new, or from before search) starts with the
        // units its paid orders sold.
        statements.append(.run("""
            INSERT INTO search_documents (product_id, analyzer_version, title_key, words, counted, terms, units_sold)
            VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
                                       WHERE l.product_id = ? AND o.paid_at IS NOT NULL))
            ON CONFLICT (product_id) DO UPDATE SET analyzer_version = excluded.analyzer_version,
                title_key = excluded.title_key, words = excluded.words, counted = excluded.counted, terms = excluded.terms
            """, [.integer(id.rawValue), .int(SearchAnalyzer.version), .text(entry.titleKey), .text(storedWords(entry.vocabulary)),
                  .bool(listed), .text(storedTerms(sorted: new)), .integer(id.rawValue)]))
        try connection.batch(statements)
        try updateVocabulary(removing: previous.flatMap { $0.counted ? parseWords($0.words) : nil } ?? [],
                             adding: listed ? entry.vocabulary : [], on: connection)
    }

    /// Takes a deleted listing out of the index: its postings, found by their keys from its
    /// forward terms, and its document.
    static func remove(_ id: ProductID, on connection: some SQLConnection) throws {
        guard let previous = try connection.queryOne(
            "SELECT words, counted, terms FROM search_documents WHERE product_id = ?", [.integer(id.rawValue)], {
                (words: $0.string(0), counted: $0.bool(1), terms: $0.string(2))
            }) else { return }
        var statements = termChanges(of: id, from: parseTerms(previous.terms), to: [], on: connection)
        statements.append(.run("DELETE FROM search_documents WHERE product_id = ?", [.integer(id.rawValue)]))
        try connection.batch(statements)
        if previous.counted { try updateVocabulary(removing: parseWords(previous.words), adding: [], on: connection) }
    }

    /// Moves the vocabulary's counts when a seller's listings leave the catalog (`listed:
    /// false`: suspended, withdrawn) or come back (`true`: reinstated), before `products` says
    /// so: their words are suggested only while they are listed.
    static func recount(listingsOf sellerID: UserID, listed: Bool, on connection: some SQLConnection) throws {
        var changes: [String: (kind: String, key: String, by: Int)] = [:]
        try connection.forEach("""
            SELECT d.words FROM search_documents d JOIN products p ON p.id = d.product_id
            WHERE p.seller_id = ? AND p.deleted_at IS NULL AND d.counted = ?
            """, [.integer(sellerID.rawValue), .bool(!listed)]) { row in
            for word in parseWords(row.string(0)) {
                changes["\(word.kind):\(word.key)", default: (word.kind, word.key, 0)].by += listed ? 1 : -1
            }
        }
        guard !changes.isEmpty else { return }
        for (_, change) in changes.sorted(by: { $0.key < $1.key }) {
            // A listing coming back finds its words' rows: they are kept at zero, never deleted.
            _ = try connection.run("UPDATE search_words SET products = products + ? WHERE word = ? AND kind = ?",
                                   [.int(change.by), .text(change.key), .text(change.kind)])
        }
        _ = try connection.run("""
            UPDATE search_documents SET counted = ? WHERE counted = ? AND product_id IN (
                SELECT id FROM products WHERE seller_id = ? AND deleted_at IS NULL)
            """, [.bool(listed), .bool(!listed), .integer(sellerID.rawValue)])
    }

    // MARK: Forward terms

    /// A listing's terms in the order of `search_terms`' key: by their UTF-8 bytes, as both
    /// stores compare text (SQLite's `BINARY`, Postgres's `COLLATE "C"`).
    static func sortedTerms(_ terms: [String: Int]) -> [(term: String, weight: Int)] {
        terms.map { (term: $0.key, weight: $0.value) }.sorted { $0.term.utf8.lexicographicallyPrecedes($1.term.utf8) }
    }

    /// How `search_documents.terms` keeps a listing's terms (its forward index): one line per
    /// term, the term, a space and its weight in decimal (1–15), lines joined by a line feed in
    /// the order of `search_terms`' key (``sortedTerms(_:)``), the empty text for none. Migration
    /// 27 writes the same text from the postings (``SearchSchema/forwardIndexSQLite``).
    ///
    /// Neither separator can occur in a term. A term is a word of the analyser or made from one
    /// (``SearchAnalyzer/terms(title:content:tags:spec:)``): Hangul syllables (bigrams, single
    /// syllables, `=` and a whole word or its stem), a run of letters and digits with `%` after
    /// a digit, and never white space or a control character, which cut words apart; or `#` and
    /// a tag, which is letters, digits and `_` only (``ProductTags``). A reader splits each
    /// line at its last space all the same, since the weight is digits.
    static func storedTerms(sorted terms: some Sequence<(term: String, weight: Int)>) -> String {
        var text = ""
        for (index, (term, weight)) in terms.enumerated() {
            if index > 0 { text += "\n" }
            text += term
            text += " "
            text += String(weight)
        }
        return text
    }

    /// ``storedTerms(sorted:)`` of a listing's terms.
    static func storedTerms(_ terms: [String: Int]) -> String { storedTerms(sorted: sortedTerms(terms)) }

    /// The terms of a `search_documents.terms` text, in its order; a line that is not a term and
    /// a weight is skipped.
    static func parseTerms(_ text: String) -> [(term: String, weight: Int)] {
        text.split(separator: "\n").compactMap { line in
            guard let space = line.lastIndex(of: " "), let weight = Int(line[line.index(after: space)...]) else { return nil }
            return (String(line[..<space]), weight)
        }
    }

    /// How many terms a `search_documents.terms` text holds, without parsing it.
    static func termCount(_ text: String) -> Int {
        text.isEmpty ? 0 : text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// What `search_terms` holds of `terms` for the listing, each posting sought by its key, in
    /// term order.
    private static func postings(of id: ProductID, among terms: [String], on connection: some SQLConnection) throws
        -> [(term: String, weight: Int)] {
        guard !terms.isEmpty else { return [] }
        let found = try connection.query(
            "SELECT term, weight FROM search_terms WHERE product_id = ? AND term IN (\(connection.dialect.textsFromJSON))",
            [.integer(id.rawValue), .text(jsonArray(of: Set(terms).sorted()))]) { (term: $0.string(0), weight: $0.int(1)) }
        return found.sorted { $0.term.utf8.lexicographicallyPrecedes($1.term.utf8) }
    }

    /// Rows per `INSERT` of terms: 3 parameters each, well under either store's limit.
    private static let termsPerStatement = 300

    /// The statements that turn a listing's postings `old` into `new` (both in term order): a
    /// delete, an update or an insert by key for each term that differs, in term order, the
    /// inserts of consecutive new terms in one statement.
    private static func termChanges<Connection: SQLConnection>(
        of id: ProductID, from old: [(term: String, weight: Int)], to new: [(term: String, weight: Int)], on _: Connection
    ) -> [SQLStatement<Connection.Row>] {
        var statements: [SQLStatement<Connection.Row>] = []
        var inserts: [SQLValue] = []
        func flushInserts() {
            guard !inserts.isEmpty else { return }
            let values = Array(repeating: "(?, ?, ?)", count: inserts.count / 3).joined(separator: ", ")
            statements.append(.run("INSERT INTO search_terms (term, product_id, weight) VALUES \(values)", inserts))
            inserts.removeAll(keepingCapacity: true)
        }
        func insert(_ term: String, _ weight: Int) {
            inserts += [.text(term), .integer(id.rawValue), .int(weight)]
            if inserts.count == termsPerStatement * 3 { flushInserts() }
        }
        func delete(_ term: String) {
            flushInserts()
            statements.append(.run("DELETE FROM search_terms WHERE term = ? AND product_id = ?", [.text(term), .integer(id.rawValue)]))
        }
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i].term.utf8.lexicographicallyPrecedes(new[j].term.utf8)) {
                delete(old[i].term)
                i += 1
            } else if i == old.count || new[j].term.utf8.lexicographicallyPrecedes(old[i].term.utf8) {
                insert(new[j].term, new[j].weight)
                j += 1
            } else {
                if old[i].weight != new[j].weight {
                    flushInserts()
                    statements.append(.run("UPDATE search_terms SET weight = ? WHERE term = ? AND product_id = ?",
                                           [.int(new[j].weight), .text(new[j].term), .integer(id.rawValue)]))
                }
                i += 1
                j += 1
            }
        }
        flushInserts()
        return statements
    }

    /// A JSON array of texts, for ``SQLDialect/textsFromJSON``.
    static func jsonArray(of texts: [String]) -> String {
        var json = "["
        for (index, text) in texts.enumerated() {
            if index > 0 { json += "," }
            JSONString.append(text, to: &json)
        }
        return json + "]"
    }

    /// Moves the vocabulary's counts by what a listing lost and gained, in key order, so that two
    /// writers take the rows' locks in the same order.
    private static func updateVocabulary(removing old: [(kind: String, key: String)], adding new: [SearchAnalyzer.VocabularyEntry],
                                         on connection: some SQLConnection) throws {
        let oldKeys = Set(old.map { "\($0.kind):\($0.key)" })
        let newKeys = Set(new.map { "\($0.kind.rawValue):\($0.key)" })
        var changes: [(key: String, kind: String, entry: SearchAnalyzer.VocabularyEntry?)] = []
        for entry in old where !newKeys.contains("\(entry.kind):\(entry.key)") { changes.append((entry.key, entry.kind, nil)) }
        for entry in new where !oldKeys.contains("\(entry.kind.rawValue):\(entry.key)") {
            changes.append((entry.key, entry.kind.rawValue, entry))
        }
        changes.sort { ($0.key, $0.kind) < ($1.key, $1.kind) }
        for change in changes {
            if let entry = change.entry {
                _ = try connection.run("""
                    INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, 1)
                    ON CONFLICT (word, kind) DO UPDATE SET products = search_words.products + 1
                    """, [.text(entry.key), .text(entry.kind.rawValue), .text(entry.display), .text(entry.spelling),
                          entry.initials.map(SQLValue.text) ?? .null])
            } else {
                _ = try connection.run("UPDATE search_words SET products = products - 1 WHERE word = ? AND kind = ? AND products > 0",
                                       [.text(change.key), .text(change.kind)])
            }
        }
    }

    /// Counts a paid order's units as sold, a ranking signal (docs/search.md "Ranking").
    static func countSales(of orderID: OrderID) -> (sql: String, arguments: [SQLValue]) {
        ("""
        UPDATE search_documents SET units_sold = units_sold
            + (SELECT coalesce(sum(l.quantity), 0) FROM order_lines l
               WHERE l.order_id = ? AND l.product_id = search_documents.product_id)
        WHERE product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)
        """, [.integer(orderID.rawValue), .integer(orderID.rawValue)])
    }

    // MARK: Catching up and rebuilding

    /// Listings per transaction when indexing in bulk.
    package static let batchSize = 500

    /// Indexes up to `limit` live listings that have no entry, or one from an older analyzer, in
    /// one transaction; returns how many it indexed (0 once all are current).
    static func catchUp(limit: Int, on connection: some SQLConnection) throws -> Int {
        let stale = try connection.query("""
            SELECT \(ProductRow.columns) FROM products p
            WHERE p.deleted_at IS NULL AND NOT EXISTS (
                SELECT 1 FROM search_documents d WHERE d.product_id = p.id AND d.analyzer_version = ?)
            ORDER BY p.id LIMIT ?
            """, [.int(SearchAnalyzer.version), .int(limit)], ProductRow.decode)
        for product in stale { try index(product, on: connection) }
        return stale.count
    }

    /// Indexes again, in one transaction, the live listings with ids above `after`, up to
    /// `limit` of them, each against the postings `search_terms` holds for its terms rather than
    /// against its forward terms (so what was changed behind the index's back is mended);
    /// returns the last id indexed, or nil when there were none.
    static func reindex(after: ProductID?, limit: Int, on connection: some SQLConnection) throws -> ProductID? {
        let products = try connection.query(
            "SELECT \(ProductRow.columns) FROM products WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?",
            [.integer(after?.rawValue ?? 0), .int(limit)], ProductRow.decode)
        for product in products { try index(product, checkingPostings: true, on: connection) }
        // A listing whose postings were right writes none, which would announce nothing; its
        // document was written all the same, and servers must not keep answers from before.
        if !products.isEmpty && connection.dialect == .postgres {
            _ = try connection.run(CatalogSchema.announceChangePostgres, [])
        }
        return products.last?.id
    }
}
