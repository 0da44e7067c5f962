import KeyCatDomain
import KeyCatInfrastructure

extension SearchIndex {
    /// The search entries of many new listings, gathered in memory and written together: what
    /// ``statements(indexing:_:listed:previous:postings:created:on:)`` writes for one listing, but with each table's rows added
    /// together (``SQLConnection/append(into:columns:count:row:)``: multi-row statements on
    /// SQLite, a `COPY` on Postgres), the postings in key order (so each term's range of `search_terms`
    /// is appended to once per flush rather than once per listing), and the vocabulary's counts
    /// added up first (one upsert per word instead of one per listing that has it). Each
    /// document carries the listing's forward terms (``SearchIndex/storedTerms(sorted:)``), made
    /// from its postings when it is written.
    ///
    /// Only for listings that have no entry yet (a bulk load's new ids): nothing is deleted.
    struct Bulk {
        /// Terms by their index in ``terms``, so a posting is one integer.
        private var termIndex: [SearchTerm: Int] = [:]
        private var terms: [String] = []
        /// Postings packed as term index (24 bits), product id (36 bits), weight (4 bits).
        private(set) var postings: [UInt64] = []
        /// Each listing's document, with where its postings start in ``postings`` (they run to
        /// the next document's start: a listing's postings are added together).
        private var documents: [(id: Int64, titleKey: String, words: String, postings: Int)] = []
        private var vocabulary: [VocabularyKey: (entry: SearchAnalyzer.VocabularyEntry, count: Int)] = [:]

        private struct VocabularyKey: Hashable {
            let kind: SearchAnalyzer.VocabularyEntry.Kind
            let key: SearchTerm
        }

        /// The most distinct terms and the largest id a posting packs.
        static let maximumTerms = 1 << 24
        static let maximumID: Int64 = 1 << 36 - 1

        /// Whether every listing was added after one with a smaller id, as a load adds its new
        /// ids.
        private var addedInIDOrder = true

        /// How many listings the caller will add before the next ``write(on:)``, when it knows
        /// (a load; ``write(on:)`` sets it back to 0). Once the first ``sampleListings`` have
        /// shown how many postings a listing has, the postings are given room for them all.
        /// Grown by doubling instead, a million synthetic listings' 68 million postings passed
        /// 2²⁶ near the end and were copied into room for 134 million: a gigabyte asked for,
        /// half of it written by the copy while the old half was still held.
        var expectedListings = 0
        private static let sampleListings = 1_000

        /// How many listings are waiting to be written.
        var count: Int { documents.count }

        /// Adds a listing's entries.
        mutating func add(_ id: ProductID, _ entry: Entry) {
            precondition(id.rawValue <= Self.maximumID && terms.count + entry.terms.count < Self.maximumTerms)
            if let last = documents.last?.id, last >= id.rawValue { addedInIDOrder = false }
            let start = postings.count
            for (term, weight) in entry.terms {
                let key = SearchTerm(term)
                let index: Int
                if let known = termIndex[key] {
                    index = known
                } else {
                    index = terms.count
                    termIndex[key] = index
                    terms.append(term)
                }
                postings.append(UInt64(index) << 40 | UInt64(id.rawValue) << 4 | UInt64(weight))
            }
            documents.append((id.rawValue, entry.titleKey, entry.words, start))
            if documents.count == Self.sampleListings && expectedListings > documents.count {
                // With a twentieth to spare, for listings longer than the first thousand.
                postings.reserveCapacity(postings.count * expectedListings / documents.count * 21 / 20)
            }
            for word in entry.vocabulary {
                let key = VocabularyKey(kind: word.kind, key: SearchTerm(word.key))
                if let known = vocabulary[key] {
                    vocabulary[key] = (known.entry, known.count + 1)
                } else {
                    vocabulary[key] = (word, 1)
                }
            }
        }

        /// Hands `body` the packed postings, each holding its term's rank, in the order of
        /// `search_terms`' key (by term, then by id), a slice at a time: each slice a run of
        /// whole terms, at most `sliceSize` postings unless one term alone has more.
        ///
        /// When the listings came in id order (`inIDOrder`), each term's postings already are, so
        /// a stable counting pass by term puts them in key order (a profile of 200,000 listings:
        /// 0.1 s, where sorting their 13.6 million postings took 0.9 s). Each slice is one such
        /// pass over every posting into a buffer of the slice's size, rather than one pass into a
        /// second array as large as the postings: at a million listings the postings are 68
        /// million, 544 MB, and the buffer 64 MB, for a pass over them per slice (nine). Otherwise
        /// they are sorted where they are, and cut into slices there.
        static func inKeyOrder(_ postings: inout [UInt64], termCount: Int, inIDOrder: Bool, sliceSize: Int = 1 << 23,
                               _ body: (ArraySlice<UInt64>) throws -> Void) rethrows {
            guard inIDOrder else {
                postings.sort()
                var start = 0
                while start < postings.count {
                    var end = min(start + sliceSize, postings.count)
                    if end < postings.count && postings[end] >> 40 == postings[end - 1] >> 40 {
                        // Within a term: end where it starts, or where it ends when it is the slice.
                        let term = postings[end] >> 40
                        var cut = end
                        while cut > start && postings[cut - 1] >> 40 == term { cut -= 1 }
                        if cut > start { end = cut } else { while end < postings.count && postings[end] >> 40 == term { end += 1 } }
                    }
                    try body(postings[start..<end])
                    start = end
                }
                return
            }
            var starts = [Int](repeating: 0, count: termCount + 1)
            for posting in postings { starts[Int(posting >> 40) + 1] += 1 }
            for rank in 0..<termCount { starts[rank + 1] += starts[rank] }
            var buffer: [UInt64] = []
            var low = 0
            while low < termCount {
                // The ranks `low..<high`: as many whole terms as fit in a slice, at least one.
                var high = low + 1
                while high < termCount && starts[high + 1] - starts[low] <= sliceSize { high += 1 }
                let base = starts[low]
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: repeatElement(0, count: starts[high] - base))
                for posting in postings {
                    let rank = Int(posting >> 40)
                    guard rank >= low && rank < high else { continue }
                    buffer[starts[rank] - base] = posting
                    starts[rank] += 1
                }
                try body(buffer[...])
                low = high
            }
        }

        /// Writes everything gathered, on a connection in the transaction that wrote the listings
        /// (or a later one: a listing without its `search_documents` row is indexed again by
        /// ``SearchIndex/catchUp(after:limit:on:)``), and empties the buffers.
        mutating func write(on connection: some SQLConnection) throws {
            // Postings in the order of `search_terms`' key: terms as the stores compare them
            // (code points of UTF-8, which both collations used here order alike), then ids.
            let order = terms.indices.sorted { terms[$0].utf8.lexicographicallyPrecedes(terms[$1].utf8) }
            var rank = [UInt64](repeating: 0, count: terms.count)
            for (position, index) in order.enumerated() { rank[index] = UInt64(position) }
            for index in postings.indices { postings[index] = rank[Int(postings[index] >> 40)] << 40 | postings[index] & (1 << 40 - 1) }
            // The documents first, while each listing's postings are still together: its forward
            // terms are its postings in rank order, the order of the key.
            var forward: [UInt64] = []
            let names = terms  // the lazily mapped forward terms below cannot capture `self`
            try connection.append(into: "search_documents", columns: ["product_id", "analyzer_version", "title_key", "words", "terms"],
                                  count: documents.count) { index, arguments in
                let document = documents[index]
                let end = index + 1 < documents.count ? documents[index + 1].postings : postings.count
                forward.removeAll(keepingCapacity: true)
                forward.append(contentsOf: postings[document.postings..<end])
                forward.sort()
                let text = storedTerms(sorted: forward.lazy.map { (term: names[order[Int($0 >> 40)]], weight: Int($0 & 15)) })
                arguments += [.integer(document.id), .int(SearchAnalyzer.version), .text(document.titleKey), .text(document.words),
                              .text(text)]
            }
            try Self.inKeyOrder(&postings, termCount: order.count, inIDOrder: addedInIDOrder) { slice in
                try connection.append(into: "search_terms", columns: ["term", "product_id", "weight"], count: slice.count) { index, arguments in
                    // Appended one by one: `+= [a, b, c]` builds an array on the heap for each of
                    // 68 million postings.
                    let posting = slice[slice.startIndex + index]
                    arguments.append(.text(names[order[Int(posting >> 40)]]))
                    arguments.append(.integer(Int64(posting >> 4 & UInt64(Self.maximumID))))
                    arguments.append(.integer(Int64(posting & 15)))
                }
            }
            // In key order, the order single writers lock them in.
            let words = vocabulary.values.sorted { $0.entry < $1.entry }
            try connection.insertRows(into: "search_words", columns: ["word", "kind", "display", "spelling", "initials", "products"],
                                      count: words.count,
                                      suffix: " ON CONFLICT (word, kind) DO UPDATE SET products = search_words.products + excluded.products") { index, arguments in
                let (entry, count) = words[index]
                arguments += [.text(entry.key), .text(entry.kind.rawValue), .text(entry.display), .text(entry.spelling),
                              entry.initials.map(SQLValue.text) ?? .null, .int(count)]
            }
            addedInIDOrder = true
            // Their memory goes back too (a gigabyte at a million listings), before the load
            // rebuilds its indexes: a load larger than one flush allocates it again once.
            expectedListings = 0
            termIndex.removeAll()
            terms.removeAll()
            postings.removeAll()
            documents.removeAll()
            vocabulary.removeAll()
        }
    }
}
