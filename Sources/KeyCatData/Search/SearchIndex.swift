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
        /// In the order of `search_terms`' key (``SearchAnalyzer/sortedTerms(title:content:tags:spec:)``).
        let terms: [(term: String, weight: Int)]
        let titleKey: String
        let vocabulary: [SearchAnalyzer.VocabularyEntry]
        /// ``vocabulary`` as `search_documents.words` keeps it (``storedWords(_:)``), made with
        /// the rest of the entry: a load analyses off the writer's thread.
        let words: String

        init(title: String, content: String, tags: [String], spec: KeyboardSpec) {
            terms = SearchAnalyzer.sortedTerms(title: title, content: content, tags: tags, spec: spec)
            titleKey = SearchAnalyzer.titleKey(title)
            vocabulary = SearchAnalyzer.vocabulary(title: title, tags: tags)
            words = SearchIndex.storedWords(vocabulary)
        }

        init(_ product: Product) {
            self.init(title: product.title, content: product.content, tags: product.tags, spec: product.spec)
        }
    }

    /// How `search_documents.words` keeps a listing's vocabulary: one `kind:key` per line.
    static func storedWords(_ vocabulary: [SearchAnalyzer.VocabularyEntry]) -> String {
        var bytes: [UInt8] = []
        for entry in vocabulary {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
            bytes.append(contentsOf: entry.kind.rawValue.utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: entry.key.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func parseWords(_ text: String) -> [(kind: String, key: String)] {
        text.split(separator: "\n").compactMap(storedWord)
    }

    /// One `kind:key` of ``storedWords(_:)``, split at its first colon by bytes: a key that
    /// begins with a combining mark joins the colon into one `Character`, and a split by
    /// characters finds no colon (a listing's word was then never counted down).
    static func storedWord(_ line: Substring) -> (kind: String, key: String)? {
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return (String(decoding: line.utf8[..<colon], as: UTF8.self),
                String(decoding: line.utf8[line.utf8.index(after: colon)...], as: UTF8.self))
    }

    /// What `search_documents` keeps of a listing that the next index of it starts from.
    struct Document {
        let words: String
        let counted: Bool
        let terms: String
    }

    static let documentColumns = "words, counted, terms"
    private static let documentSQL = "SELECT \(documentColumns) FROM search_documents WHERE product_id = ?"
    /// A document from the first three columns of `row` (``documentColumns``).
    static func decodeDocument(_ row: some SQLRow) -> Document {
        Document(words: row.string(0), counted: row.bool(1), terms: row.string(2))
    }

    /// The query that reads a listing's document and hands it to `found` (not called when it
    /// has none), for a batch that reads it beside a write it does not depend on: a seller's
    /// edit and a withdrawal send it with the listing's `UPDATE`.
    static func documentQuery<Row: SQLRow>(of id: ProductID, _ found: @escaping (Document) -> Void) -> SQLStatement<Row> {
        .query(documentSQL, [.integer(id.rawValue)]) { found(decodeDocument($0)) }
    }

    /// The statements that index a listing written in this transaction, whose document was
    /// `previous` (nil when it has none: a new listing, or one from before search), for one batch: on Postgres one round trip
    /// for the postings, the document and the vocabulary's counts, however many words moved.
    ///
    /// They write what changed between the listing's forward terms (`search_documents.terms`)
    /// and the terms `entry` gives. The document goes first, with the new forward terms: two
    /// writers of one listing's entries meet at its row, and on Postgres a serializable one
    /// whose snapshot missed the other's document fails there with a serialization failure,
    /// which is run again, rather than on a posting with a unique violation, which is not (a
    /// listing created in the transaction has no other writer). Then the
    /// postings of terms it lost are deleted, those whose weight changed updated, new ones
    /// inserted, each by its key, in term order. An edit that changes one word writes the few
    /// postings of that word's terms, not the listing's seventy. Then the vocabulary's counts,
    /// by what the listing lent and now lends, in their key's order.
    ///
    /// - Parameters:
    ///   - listed: whether the listing is listed, and so lends its words to the vocabulary's
    ///     counts.
    ///   - postings: what the listing's postings are, when not its forward terms: what
    ///     `search_terms` holds for its forward and new terms, so that a posting deleted or
    ///     changed behind the index's back is written again (``index(_:checkingPostings:on:)``).
    ///   - created: whether the listing was created in this transaction: no order can hold it
    ///     yet, so its units sold start at 0 without reading the orders.
    static func statements<Connection: SQLConnection>(
        indexing id: ProductID, _ entry: Entry, listed: Bool, previous: Document?,
        postings: [(term: String, weight: Int)]? = nil, created: Bool = false, on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        var tally = VocabularyTally()
        let statements = statements(indexing: id, entry, listed: listed, previous: previous, postings: postings, created: created,
                                    counting: &tally, on: connection)
        return statements + vocabularyStatements(tally.moves)
    }

    /// ``statements(indexing:_:listed:previous:postings:created:on:)`` for one listing of a bulk
    /// write: the vocabulary's moves go to `tally`, written once the batch's documents and
    /// postings are (``VocabularyTally``).
    static func statements<Connection: SQLConnection>(
        indexing id: ProductID, _ entry: Entry, listed: Bool, previous: Document?,
        postings: [(term: String, weight: Int)]? = nil, created: Bool = false, counting tally: inout VocabularyTally,
        on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        // A listing indexed for the first time from before search starts with the units its
        // paid orders sold; one created in this transaction has sold none.
        var arguments: [SQLValue] = [.integer(id.rawValue), .int(SearchAnalyzer.version), .text(entry.titleKey), .text(entry.words),
                                     .bool(listed), .text(storedTerms(sorted: entry.terms))]
        if !created { arguments.append(.integer(id.rawValue)) }
        var statements: [SQLStatement<Connection.Row>] = [.run(created ? newDocumentSQL : documentUpsertSQL, arguments)]
        let old = postings ?? previous.map { parseTerms($0.terms) } ?? []
        statements += termChanges(of: id, from: old, to: entry.terms, on: connection)
        tally.record(removing: previous.flatMap { $0.counted ? parseWords($0.words) : nil } ?? [], adding: listed ? entry.vocabulary : [])
        if !listed { tally.keep(entry.vocabulary) }
        return statements
    }

    /// A listing's document, its units sold and their value counted again from its paid orders, whether it is
    /// new or replaces one: a write of the listing (or `search reindex`) mends a count a payment
    /// missed (docs/search.md, "Catching up and rebuilding"). A payment counting into the same
    /// document beside it waits for this write's row, then adds its units to the new count; one
    /// that counted first, after this write's snapshot, fails this serializable write, which
    /// runs again and counts it. Both counts come from one pass over the listing's lines (until
    /// 2026-12-02 each was a subquery of its own, so a listing sold ten thousand times read its
    /// lines twice on every edit); an aggregate without `GROUP BY` is one row, zeros without lines.
    private static let documentUpsertSQL = """
        INSERT INTO search_documents (product_id, analyzer_version, title_key, words, counted, terms, units_sold, value_sold)
        \(standingSales("?, ?, ?, ?, ?, ?, \(unitsSum), \(valueSum)", of: "?"))
        ON CONFLICT (product_id) DO UPDATE SET analyzer_version = excluded.analyzer_version,
            title_key = excluded.title_key, words = excluded.words, counted = excluded.counted, terms = excluded.terms,
            units_sold = excluded.units_sold, value_sold = excluded.value_sold
        """
    private static let newDocumentSQL = """
        INSERT INTO search_documents (product_id, analyzer_version, title_key, words, counted, terms, units_sold, value_sold)
        VALUES (?, ?, ?, ?, ?, ?, 0, 0)
        """

    /// The statements that take a deleted listing whose document is `previous` out of the
    /// index (none when it has no document), for one batch: its document first, as every
    /// writer of a listing's entries starts there (``statements(indexing:_:listed:previous:postings:created:on:)``).
    static func removal<Connection: SQLConnection>(
        of id: ProductID, previous: Document?, on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        var tally = VocabularyTally()
        return removal(of: id, previous: previous, counting: &tally, on: connection) + vocabularyStatements(tally.moves)
    }

    /// ``removal(of:previous:on:)`` for one listing of a bulk write, its vocabulary's moves
    /// going to `tally`.
    static func removal<Connection: SQLConnection>(
        of id: ProductID, previous: Document?, counting tally: inout VocabularyTally, on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        guard let previous else { return [] }
        if previous.counted { tally.record(removing: parseWords(previous.words), adding: []) }
        return [.run("DELETE FROM search_documents WHERE product_id = ?", [.integer(id.rawValue)])]
            + termChanges(of: id, from: parseTerms(previous.terms), to: [], on: connection)
    }

    /// Moves the vocabulary's counts when a seller's listings have left the catalog (`listed:
    /// false`: suspended, withdrawn) or come back (`true`: reinstated): their words are
    /// suggested only while they are listed.
    ///
    /// Called once `products` says so, it takes its locks in the order a catch-up's batch takes
    /// them (``catchUp(after:limit:on:)``): the listings (the caller locked them, in id order),
    /// then their documents in id order, then the words in key order. Until 2026-11-30 this
    /// counted the words before the listings changed, the reverse of a batch's order, and the
    /// two could wait for each other until Postgres's `deadlock_timeout` (a second) failed one,
    /// to be run again.
    static func recount<Connection: SQLConnection>(listingsOf sellerID: UserID, listed: Bool, on connection: Connection) throws {
        var tally = VocabularyTally()
        try connection.forEach("""
            SELECT d.words FROM search_documents d JOIN products p ON p.id = d.product_id
            WHERE p.seller_id = ? AND p.deleted_at IS NULL AND d.counted = ? ORDER BY d.product_id\(connection.dialect.locking(.update, of: "d"))
            """, [.integer(sellerID.rawValue), .bool(!listed)]) { row in
            let words = parseWords(row.string(0))
            if listed { tally.countBack(words) } else { tally.record(removing: words, adding: []) }
        }
        guard !tally.isEmpty else { return }
        let statements: [SQLStatement<Connection.Row>] = [.run("""
            UPDATE search_documents SET counted = ? WHERE counted = ? AND product_id IN (
                SELECT id FROM products WHERE seller_id = ? AND deleted_at IS NULL)
            """, [.bool(listed), .bool(!listed), .integer(sellerID.rawValue)])]
        try connection.batch(statements + vocabularyStatements(tally.moves), atMost: statementsPerBatch)
    }

    /// The statements that make `moves` (in key order, ``VocabularyTally``): a word lent by
    /// listings is counted up, inserted with its spellings when new (a word counted back, with
    /// no spellings, has its row); one they no longer lend is counted down, never below zero;
    /// one an unlisted listing keeps is inserted at zero when new. A row is never deleted: a
    /// listing that comes back finds its words' rows.
    static func vocabularyStatements<Row>(_ moves: [VocabularyTally.Move]) -> [SQLStatement<Row>] {
        moves.flatMap { move -> [SQLStatement<Row>] in
            var statements: [SQLStatement<Row>] = []
            if let entry = move.entry {
                switch move.added {
                case 0: statements.append(.run(keepSQL, addArguments(entry)))
                case 1: statements.append(.run(addOneSQL, addArguments(entry)))
                default: statements.append(.run(addSQL, addArguments(entry) + [.int(move.added)]))
                }
            } else if move.added > 0 {
                statements.append(.run(countBackSQL, [.int(move.added), .text(move.key), .text(move.kind)]))
            }
            if move.removed == 1 {
                statements.append(.run(removeOneSQL, [.text(move.key), .text(move.kind)]))
            } else if move.removed > 1 {
                statements.append(.run(removeSQL, [.int(move.removed), .int(move.removed), .text(move.key), .text(move.kind)]))
            }
            return statements
        }
    }

    /// One listing's statements keep their text of before bulk writes were tallied, and so
    /// their prepared statements.
    private static let addOneSQL = """
        INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, 1)
        ON CONFLICT (word, kind) DO UPDATE SET products = search_words.products + 1
        """
    private static let addSQL = """
        INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (word, kind) DO UPDATE SET products = search_words.products + excluded.products
        """
    private static let keepSQL = """
        INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, 0)
        ON CONFLICT (word, kind) DO NOTHING
        """
    private static let countBackSQL = "UPDATE search_words SET products = products + ? WHERE word = ? AND kind = ?"
    private static let removeOneSQL = "UPDATE search_words SET products = products - 1 WHERE word = ? AND kind = ? AND products > 0"
    private static let removeSQL = """
        UPDATE search_words SET products = CASE WHEN products > ? THEN products - ? ELSE 0 END
        WHERE word = ? AND kind = ? AND products > 0
        """

    private static func addArguments(_ entry: SearchAnalyzer.VocabularyEntry) -> [SQLValue] {
        [.text(entry.key), .text(entry.kind.rawValue), .text(entry.display), .text(entry.spelling), entry.initials.map(SQLValue.text) ?? .null]
    }
}
