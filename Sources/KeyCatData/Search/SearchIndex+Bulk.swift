import KeyCatDomain
import KeyCatInfrastructure

extension SearchIndex {
    /// The search entries of many new listings, gathered in memory and written together: what
    /// ``index(_:_:on:)`` writes one listing at a time, but with each table's rows in few
    /// multi-row statements, the postings in key order (so each term's range of `search_terms`
    /// is appended to once per flush rather than once per listing), and the vocabulary's counts
    /// added up first (one upsert per word instead of one per listing that has it).
    ///
    /// Only for listings that have no entry yet (a bulk load's new ids): nothing is deleted.
    struct Bulk {
        /// Terms by their index in ``terms``, so a posting is three integers.
        private var termIndex: [String: Int32] = [:]
        private var terms: [String] = []
        /// Postings as (term index, product id, weight).
        private var postings: [(term: Int32, product: Int64, weight: Int8)] = []
        private var documents: [(id: Int64, titleKey: String, words: String)] = []
        private var vocabulary: [String: (entry: SearchAnalyzer.VocabularyEntry, count: Int)] = [:]

        /// How many listings are waiting to be written.
        var count: Int { documents.count }

        /// Adds a listing's entries.
        mutating func add(_ id: ProductID, title: String, content: String, tags: [String], spec: KeyboardSpec) {
            let entry = Entry(title: title, content: content, tags: tags, spec: spec)
            for (term, weight) in entry.terms {
                let index: Int32
                if let known = termIndex[term] {
                    index = known
                } else {
                    index = Int32(terms.count)
                    termIndex[term] = index
                    terms.append(term)
                }
                postings.append((index, id.rawValue, Int8(weight)))
            }
            documents.append((id.rawValue, entry.titleKey, storedWords(entry.vocabulary)))
            for word in entry.vocabulary {
                let key = "\(word.kind.rawValue):\(word.key)"
                if let known = vocabulary[key] {
                    vocabulary[key] = (known.entry, known.count + 1)
                } else {
                    vocabulary[key] = (word, 1)
                }
            }
        }

        /// Writes everything gathered, on a connection in the transaction that wrote the listings
        /// (or a later one: a listing without its `search_documents` row is indexed again by
        /// ``SearchIndex/catchUp(limit:on:)``), and empties the buffers.
        mutating func write(on connection: some SQLConnection) throws {
            // Postings in the order of `search_terms`' key: terms as the stores compare them
            // (code points of UTF-8, which both collations used here order alike), then ids.
            let order = terms.indices.sorted { terms[$0].utf8.lexicographicallyPrecedes(terms[$1].utf8) }
            var rank = [Int32](repeating: 0, count: terms.count)
            for (position, index) in order.enumerated() { rank[index] = Int32(position) }
            postings.sort { (rank[Int($0.term)], $0.product) < (rank[Int($1.term)], $1.product) }
            try insert(into: "search_terms (term, product_id, weight)", columns: 3, count: postings.count, on: connection) { index, arguments in
                let posting = postings[index]
                arguments += [.text(terms[Int(posting.term)]), .integer(posting.product), .int(posting.weight)]
            }
            try insert(into: "search_documents (product_id, analyzer_version, title_key, words)", columns: 4, count: documents.count,
                       on: connection) { index, arguments in
                let document = documents[index]
                arguments += [.integer(document.id), .int(SearchAnalyzer.version), .text(document.titleKey), .text(document.words)]
            }
            // In key order, the order single writers lock them in.
            let words = vocabulary.values.sorted { $0.entry < $1.entry }
            try insert(into: "search_words (word, kind, display, spelling, initials, products)", columns: 6, count: words.count,
                       suffix: " ON CONFLICT (word, kind) DO UPDATE SET products = search_words.products + excluded.products",
                       on: connection) { index, arguments in
                let (entry, count) = words[index]
                arguments += [.text(entry.key), .text(entry.kind.rawValue), .text(entry.display), .text(entry.spelling),
                              entry.initials.map(SQLValue.text) ?? .null, .int(count)]
            }
            termIndex.removeAll(keepingCapacity: true)
            terms.removeAll(keepingCapacity: true)
            postings.removeAll(keepingCapacity: true)
            documents.removeAll(keepingCapacity: true)
            vocabulary.removeAll(keepingCapacity: true)
        }

        /// Parameters per statement: under Postgres's 65,535 and SQLite's 32,766.
        private static let parametersPerStatement = 30_000

        /// `INSERT INTO table VALUES (…), (…)…` of `count` rows of `columns` parameters, in as
        /// few statements as the parameter limit allows (two texts at most: the full one and the
        /// last, so the connections' statement caches stay small).
        private func insert(into table: String, columns: Int, count: Int, suffix: String = "", on connection: some SQLConnection,
                            row: (Int, inout [SQLValue]) -> Void) throws {
            let rowsPerStatement = Self.parametersPerStatement / columns
            let placeholders = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
            func sql(_ rows: Int) -> String {
                "INSERT INTO \(table) VALUES " + Array(repeating: placeholders, count: rows).joined(separator: ", ") + suffix
            }
            let full = sql(rowsPerStatement)
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(min(count, rowsPerStatement) * columns)
            var start = 0
            while start < count {
                let end = min(start + rowsPerStatement, count)
                arguments.removeAll(keepingCapacity: true)
                for index in start..<end { row(index, &arguments) }
                _ = try connection.run(end - start == rowsPerStatement ? full : sql(end - start), arguments)
                start = end
            }
        }
    }
}
