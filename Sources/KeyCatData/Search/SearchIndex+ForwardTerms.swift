import KeyCatDomain
import KeyCatInfrastructure

/// A listing's forward terms (`search_documents.terms`, docs/search.md "The index"): their stored
/// form, and the postings a re-index writes to turn the old terms into the new.
extension SearchIndex {
    /// How `search_documents.terms` keeps a listing's terms (its forward index): one line per
    /// term, the term, a space and its weight in decimal (1–15), lines joined by a line feed in
    /// the order of `search_terms`' key (by their UTF-8 bytes, as both stores compare text:
    /// ``SearchAnalyzer/sortedTerms(title:content:tags:spec:)``), the empty text for none. Migration
    /// 27 writes the same text from the postings (``SearchSchema/forwardIndexSQLite``).
    ///
    /// Neither separator can occur in a term. A term is a word of the analyser or made from one
    /// (``SearchAnalyzer/terms(title:content:tags:spec:)``): Hangul syllables (bigrams, single
    /// syllables, `=` and a whole word or its stem), a run of letters and digits with `%` after
    /// a digit, and never white space or a control character, which cut words apart; or `#` and
    /// a tag, which is letters, digits and `_` only (``ProductTags``). A reader splits each
    /// line at its last space all the same, since the weight is digits.
    ///
    /// Built as bytes and made a string once: appending to a `String` piece by piece took a
    /// tenth of a bulk load's last step.
    static func storedTerms(sorted terms: some Sequence<(term: String, weight: Int)>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1_024)
        for (term, weight) in terms {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
            bytes.append(contentsOf: term.utf8)
            bytes.append(UInt8(ascii: " "))
            if (0..<100).contains(weight) {  // every weight is 1–15
                if weight >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(weight / 10)) }
                bytes.append(UInt8(ascii: "0") + UInt8(weight % 10))
            } else {
                bytes.append(contentsOf: String(weight).utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The terms of a `search_documents.terms` text, in its order; a line that is not a term and
    /// a weight is skipped.
    static func parseTerms(_ text: String) -> [(term: String, weight: Int)] {
        text.split(separator: "\n").compactMap { line in
            guard let space = line.lastIndex(of: " "), let weight = Int(line[line.index(after: space)...]) else { return nil }
            return (String(line[..<space]), weight)
        }
    }

    /// Every document's forward terms, in id order, handed to `body` 1,000 documents at a time.
    static func forEachForwardTermsPage(on connection: some SQLConnection,
                                        _ body: ([(id: Int64, terms: String)]) throws -> Void) throws {
        try forEachDocumentPage("terms", on: connection, decode: { (id: $0.int64(0), terms: $0.string(1)) }, body)
    }

    /// Every document's `columns`, after its `product_id`, in id order, decoded by `decode` and
    /// handed to `body` 1,000 documents at a time: a Postgres answer is held whole in memory
    /// until it is read, and a million documents' terms are about a gigabyte.
    static func forEachDocumentPage<Connection: SQLConnection, Document>(
        _ columns: String, on connection: Connection, decode: (Connection.Row) throws -> Document,
        _ body: ([Document]) throws -> Void
    ) throws {
        var after: Int64 = 0
        while true {
            var last: Int64?
            let documents = try connection.query(
                "SELECT product_id, \(columns) FROM search_documents WHERE product_id > ? ORDER BY product_id LIMIT 1000",
                [.integer(after)]) { row in
                last = row.int64(0)
                return try decode(row)
            }
            guard let last else { return }
            try body(documents)
            after = last
        }
    }

    /// How many terms a `search_documents.terms` text holds, without parsing it.
    static func termCount(_ text: String) -> Int {
        text.isEmpty ? 0 : text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// What `search_terms` holds of some terms for a listing, each posting sought by its key: a
    /// listing's id, then its terms as a JSON array.
    static func postingsSQL(on connection: some SQLConnection) -> String {
        "SELECT term, weight FROM search_terms WHERE product_id = ? AND term IN (\(connection.dialect.textsFromJSON))"
    }

    /// Rows per `INSERT` of terms: 3 parameters each, well under either store's limit.
    static let termsPerStatement = 300

    /// The statements that turn a listing's postings `old` into `new` (both in term order): a
    /// delete, an update or an insert by key for each term that differs, in term order, the
    /// inserts of consecutive new terms in one statement.
    static func termChanges<Connection: SQLConnection>(
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
}
