import KeyCatDomain
import KeyCatInfrastructure

/// Catching up and rebuilding: indexing listings in bulk, 500 a transaction, when a store opens
/// for writes (listings from before search or an older analyser) and when an operator rebuilds
/// the index (``SearchMaintenance``).
extension SearchIndex {
    /// Listings per transaction when indexing in bulk.
    package static let batchSize = 500

    /// Indexes up to `limit` live listings with ids above `after` that have no entry, or one
    /// from an older analyzer, in one transaction, in id order; returns their ids (none once all
    /// are current). Starting after the last batch's listings, a batch reads only the listings
    /// it may index, not every listing's document from the first again.
    ///
    /// On Postgres several servers may catch up at once: all of them open for writes after an
    /// upgrade. Each batch first waits for its turn (``catchUpLock``), so no two batches index
    /// the same listings side by side (until 2026-11-30 they did, and every server but one
    /// failed to open with a unique violation on a posting), and its snapshot is taken once it
    /// has it: it sees the documents every batch before it wrote. The transaction is
    /// serializable and locks its listings (`FOR UPDATE`): a seller's edit, delete, suspension
    /// or checkout changing one of them after the batch's snapshot fails the batch with a
    /// serialization failure, and it runs again; one that comes after the lock waits for the
    /// batch, then finds the listing's document.
    static func catchUp(after: ProductID?, limit: Int, on connection: some SQLConnection) throws -> [ProductID] {
        let postgres = connection.dialect.store == .postgres
        if postgres { _ = try connection.run(catchUpLock, []) }
        let stale = try connection.query("""
            SELECT \(ProductRow.columns) FROM products p
            WHERE p.deleted_at IS NULL AND p.id > ? AND NOT EXISTS (
                SELECT 1 FROM search_documents d WHERE d.product_id = p.id AND d.analyzer_version = ?)
            ORDER BY p.id LIMIT ?\(connection.dialect.locking(.update, of: "p"))
            """, [.integer(after?.rawValue ?? 0), .int(SearchAnalyzer.version), .int(limit)], ProductRow.decode)
        try index(stale, on: connection)
        return stale.map(\.id)
    }

    /// The turn a catch-up's batch waits for and holds until its transaction ends, on Postgres:
    /// a lock of `settings` (the current schema's, so tests catching up schemas of their own
    /// side by side do not meet) that conflicts with itself and with ``catchUpTurn``. SQLite's
    /// one writer already runs the batches one after another.
    ///
    /// A table's lock, not an advisory lock, because `LOCK TABLE` is the one statement that
    /// does not take a serializable transaction's snapshot: sent first, the batch waits for its
    /// turn, then takes its snapshot, which every batch and payment that held the table before
    /// it is in. (Until 2026-11-30 an advisory lock was tried in a transaction whose snapshot
    /// was already taken, and a server that found it held waited in a transaction of its own
    /// before trying again.) Nothing else writes `settings` but a database's first open, the
    /// demo's marker and the catch-up's own record, and reads of it never wait for the lock.
    static let catchUpLock = "LOCK TABLE settings IN EXCLUSIVE MODE"

    /// A payment's turn after a catch-up's batch (``catchUpLock``), held until its transaction
    /// ends: payments holding it do not wait for each other.
    ///
    /// A payment counts its units sold only into documents that exist (``countSales(of:dialect:)``).
    /// A batch writing a listing's first document counts the units sold before its snapshot, so
    /// a payment that counted before the batch committed, and committed after the batch's
    /// snapshot, lost its units (found 2026-11-30 by `SearchRaceTests`, in 4 of 8 runs). A
    /// payment takes the turn in its first exchange, before it locks anything, so it waits for
    /// a batch in flight and then finds its documents, and the next batch waits for the
    /// payments in flight and then reads their orders.
    static let catchUpTurn = "LOCK TABLE settings IN ROW SHARE MODE"

    /// Indexes listings written in this transaction, replacing what they had
    /// (``statements(indexing:_:listed:previous:postings:created:on:)`` for each), in a few statements
    /// whatever their number: their documents read in one, their postings (when checking) in one
    /// batch, then every write in batches of ``statementsPerBatch``, the vocabulary's counts
    /// last, summed over the listings (``VocabularyTally``). On Postgres a catch-up or a rebuild
    /// of 500 listings is a handful of round trips rather than two or three per listing.
    ///
    /// - Parameter checkingPostings: read what `search_terms` holds for each listing's forward
    ///   and new terms, each posting sought by its key, instead of trusting the forward terms:
    ///   for ``SearchMaintenance/reindex(progress:)``.
    static func index<Connection: SQLConnection>(_ products: [Product], checkingPostings: Bool = false, on connection: Connection) throws {
        guard !products.isEmpty else { return }
        var documents: [Int64: Document] = [:]
        try connection.forEach(
            "SELECT \(documentColumns), product_id FROM search_documents WHERE product_id IN (\(connection.dialect.integersFromJSON))",
            [.text("[" + products.map { String($0.id.rawValue) }.joined(separator: ",") + "]")]) { row in
            documents[row.int64(3)] = decodeDocument(row)
        }
        let entries = products.map { Entry($0) }
        var postings: [[(term: String, weight: Int)]]?
        if checkingPostings {
            var found = Array(repeating: [(term: String, weight: Int)](), count: products.count)
            try connection.batch(products.indices.map { index in
                let id = products[index].id
                let terms = (documents[id.rawValue].map { parseTerms($0.terms) } ?? []).map(\.term) + entries[index].terms.map(\.term)
                return .query(postingsSQL(on: connection), [.integer(id.rawValue), .text(jsonArray(of: Set(terms).sorted()))]) {
                    found[index].append((term: $0.string(0), weight: $0.int(1)))
                }
            })
            postings = found.map { $0.sorted { $0.term.utf8.lexicographicallyPrecedes($1.term.utf8) } }
        }
        var tally = VocabularyTally()
        var statements: [SQLStatement<Connection.Row>] = []
        for (index, product) in products.enumerated() {
            statements += Self.statements(indexing: product.id, entries[index], listed: product.isListed,
                                          previous: documents[product.id.rawValue], postings: postings?[index], counting: &tally, on: connection)
        }
        try connection.batch(statements + vocabularyStatements(tally.moves), atMost: statementsPerBatch)
    }

    /// How many statements a write that grows with the data sends in one batch: about 140
    /// synthetic listings' new entries (some fourteen statements each), or 2,000 of the
    /// vocabulary's counts.
    static let statementsPerBatch = 2_000

    /// Indexes again, in one transaction, the live listings with ids above `after`, up to
    /// `limit` of them; returns the last id indexed, or nil when there were none.
    ///
    /// - Parameter checkingPostings: index each listing against the postings `search_terms`
    ///   holds for its terms rather than against its forward terms, so that what was changed
    ///   behind the index's back is mended (false once the postings are known to be the forward
    ///   terms, ``SearchPostingDigest/postingsAreForwardTerms(on:)``).
    static func reindex(after: ProductID?, limit: Int, checkingPostings: Bool, on connection: some SQLConnection) throws -> ProductID? {
        let products = try connection.query(
            "SELECT \(ProductRow.columns) FROM products WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?",
            [.integer(after?.rawValue ?? 0), .int(limit)], ProductRow.decode)
        try index(products, checkingPostings: checkingPostings, on: connection)
        // A listing whose postings were right writes none, which would announce nothing; its
        // document was written all the same, and servers must not keep answers from before.
        if !products.isEmpty && connection.dialect == .postgres {
            _ = try connection.run(CatalogSchema.announceChangePostgres, [])
        }
        return products.last?.id
    }

    /// Takes out of the index up to ``batchSize`` deleted listings with ids above `after` that
    /// still have entries; returns the last one's id when there may be more, nil when none is
    /// left. A delete removes them in its own transaction, so only a database changed behind
    /// KeyCat's back has any. The removals go ``statementsPerBatch`` statements a round trip: on
    /// Postgres not two round trips per listing, and never more than a page's statements in
    /// memory.
    static func removeDeletedListings<Connection: SQLConnection>(after: Int64, on connection: Connection) throws -> Int64? {
        var statements: [SQLStatement<Connection.Row>] = []
        var tally = VocabularyTally()
        var last = after
        var count = 0
        try connection.forEach("""
            SELECT d.words, d.counted, d.terms, d.product_id FROM search_documents d
            JOIN products p ON p.id = d.product_id WHERE p.deleted_at IS NOT NULL AND d.product_id > ?
            ORDER BY d.product_id LIMIT ?
            """, [.integer(after), .int(batchSize)]) { row in
            last = row.int64(3)
            count += 1
            statements += removal(of: ProductID(last), previous: decodeDocument(row), counting: &tally, on: connection)
        }
        try connection.batch(statements + vocabularyStatements(tally.moves), atMost: statementsPerBatch)
        return count < batchSize ? nil : last
    }
}
