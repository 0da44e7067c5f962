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
    /// are current), or nil when another server's batch holds ``catchUpLock``. Starting after
    /// the last batch's listings, a batch reads only the listings it may index, not every
    /// listing's document from the first again.
    ///
    /// On Postgres several servers may catch up at once: all of them open for writes after an
    /// upgrade. Each batch first tries ``catchUpLock``, so no two batches index the same
    /// listings side by side (until 2026-11-30 they did, and every server but one failed to
    /// open with a unique violation on a posting); a server that finds it held waits for it
    /// (``SearchMaintenance/catchUp(checkingEveryListing:)``) and tries again with a new
    /// snapshot. The transaction is serializable and locks its listings (`FOR UPDATE`): a
    /// seller's edit, delete, suspension or checkout changing one of them after the batch's
    /// snapshot fails the batch with a serialization failure, and it runs again; one that comes
    /// after the lock waits for the batch, then finds the listing's document. A batch whose
    /// snapshot was taken just before another's commit meets that batch's documents the same
    /// way: each listing's document is written before its postings
    /// (``statements(indexing:_:listed:previous:postings:created:on:)``). A payment counting
    /// units sold waits for the batch (``catchUpTurn``).
    static func catchUp(after: ProductID?, limit: Int, on connection: some SQLConnection) throws -> [ProductID]? {
        let postgres = connection.dialect.store == .postgres
        if postgres, try connection.queryOne(catchUpLock, [], { $0.bool(0) }) != true { return nil }
        let stale = try connection.query("""
            SELECT \(ProductRow.columns) FROM products p
            WHERE p.deleted_at IS NULL AND p.id > ? AND NOT EXISTS (
                SELECT 1 FROM search_documents d WHERE d.product_id = p.id AND d.analyzer_version = ?)
            ORDER BY p.id LIMIT ?\(postgres ? " FOR UPDATE OF p" : "")
            """, [.integer(after?.rawValue ?? 0), .int(SearchAnalyzer.version), .int(limit)], ProductRow.decode)
        try index(stale, on: connection)
        return stale.map(\.id)
    }

    /// The advisory lock a catch-up's batch tries and holds until its transaction ends, on
    /// Postgres: keyed on "KCSX" and the current schema, as the migrations' lock is on "KCAT",
    /// so that tests catching up schemas of their own side by side do not meet. SQLite's one
    /// writer already runs the batches one after another.
    static let catchUpLock = "SELECT pg_try_advisory_xact_lock(\(catchUpLockKey))"

    /// Waits until no batch holds ``catchUpLock``, in a transaction of its own that ends at once.
    static let catchUpWait = "SELECT pg_advisory_xact_lock(\(catchUpLockKey))"

    /// Waits while a catch-up's batch runs, and keeps the next from starting until this
    /// transaction ends (a shared hold of ``catchUpLock``; holders do not wait for each other).
    ///
    /// A payment takes it before counting its units sold, which only moves a listing's document
    /// that exists (``countSales(of:dialect:)``). A batch writing a listing's first document
    /// counts the units sold before its snapshot, and a payment committing after that snapshot,
    /// whose count ran before the batch committed, found no document to count into: its units
    /// were lost (found 2026-12-01 by `SearchRaceTests`). Now the payment's count waits for the
    /// batch and finds its document; or the batch, finding the payment holding the lock, waits
    /// and reads the orders again.
    static let catchUpTurn = "SELECT pg_advisory_xact_lock_shared(\(catchUpLockKey))"

    /// The two keys of ``catchUpLock``: "KCSX", and the current schema's name hashed.
    private static let catchUpLockKey = SQLDialect.schemaLockKeys(0x4B43_5358)

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
    ///
    /// On Postgres a batch locks its listings first, in id order, as a catch-up's batch and
    /// every other writer of a listing's entries do (``recount(listingsOf:listed:on:)``), so
    /// that it waits for them, or they for it, rather than both for each other.
    static func reindex(after: ProductID?, limit: Int, checkingPostings: Bool, on connection: some SQLConnection) throws -> ProductID? {
        let products = try connection.query(
            "SELECT \(ProductRow.columns) FROM products p WHERE p.deleted_at IS NULL AND p.id > ? ORDER BY p.id LIMIT ?"
                + connection.dialect.locking(.update),
            [.integer(after?.rawValue ?? 0), .int(limit)], ProductRow.decode)
        try index(products, checkingPostings: checkingPostings, on: connection)
        // A listing whose postings were right writes none, which would announce nothing; its
        // document was written all the same, and servers must not keep answers from before.
        if !products.isEmpty && connection.dialect == .postgres {
            _ = try connection.run(CatalogSchema.announceChangePostgres, [])
        }
        return products.last?.id
    }

    /// Takes out of the index every deleted listing that still has entries. A delete removes
    /// them in its own transaction, so only a database changed behind KeyCat's back has any.
    /// Their documents are read ``batchSize`` at a time, each page's removals sent
    /// ``statementsPerBatch`` statements a round trip before the next page is read: on
    /// Postgres not two round trips per listing, and never more than a page's statements in
    /// memory.
    static func removeDeletedListings<Connection: SQLConnection>(on connection: Connection) throws {
        var after: Int64 = 0
        while true {
            var statements: [SQLStatement<Connection.Row>] = []
            var tally = VocabularyTally()
            var count = 0
            try connection.forEach("""
                SELECT d.words, d.counted, d.terms, d.product_id FROM search_documents d
                JOIN products p ON p.id = d.product_id WHERE p.deleted_at IS NOT NULL AND d.product_id > ?
                ORDER BY d.product_id LIMIT ?
                """, [.integer(after), .int(batchSize)]) { row in
                after = row.int64(3)
                count += 1
                statements += removal(of: ProductID(after), previous: decodeDocument(row), counting: &tally, on: connection)
            }
            try connection.batch(statements + vocabularyStatements(tally.moves), atMost: statementsPerBatch)
            if count < batchSize { return }
        }
    }
}
