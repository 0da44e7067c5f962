import KeyCatDomain
import KeyCatInfrastructure

/// Keeping the search index whole: indexing what an older KeyCat (or an older analyzer) left
/// unindexed, rebuilding it online, and proving it matches the catalog.
package struct SearchMaintenance<Database: SQLDatabase>: Sendable {
    let database: Database
    /// How long a bulk batch should take: one that took longer halves the next, and one within
    /// it grows the next no further than its own pace says fits. On SQLite a batch holds the one
    /// writer, the shop's, whose writes wait at most 5 s for it (`busy_timeout`): half a second
    /// leaves room for a machine that turns ten times slower between two batches (on a loaded
    /// two-core machine a batch doubled from 250 listings in 0.9 s to 500 once held it past 5 s,
    /// and a payment beside it failed, 2026-12-01).
    let batchBudget: Duration
    /// How many listings a catch-up's or a rebuild's first batch takes; each batch within
    /// ``batchBudget`` doubles the next, up to ``SearchIndex/batchSize``. Starting small, a
    /// batch on a machine far slower than expected is over before the shop's writes give up
    /// waiting, and the next ones learn from it.
    let firstBatch: Int

    package init(database: Database, batchBudget: Duration = .milliseconds(500), firstBatch: Int = 50) {
        self.database = database
        self.batchBudget = batchBudget
        self.firstBatch = max(1, min(firstBatch, SearchIndex.batchSize))
    }

    /// The `settings` key that records the analyser version every listing was indexed by.
    static var versionKey: String { "search.analyzer_version" }

    /// Indexes every live listing without a current entry, up to ``SearchIndex/batchSize`` per
    /// transaction (fewer while batches lose to the writes beside them), so readers and writers
    /// interleave; returns how many it indexed. On
    /// Postgres, servers catching up the same database take turns by batch
    /// (``SearchIndex/catchUp(after:limit:on:)``), and each returns only once none is left.
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
        var after: ProductID?
        var size = firstBatch
        while true {
            let start = after
            let batch = try await shrinking(&size) { connection, limit in
                let indexed = try SearchIndex.catchUp(after: start, limit: limit, on: connection)
                // A batch that found fewer listings than it asked for found them all.
                let allFound = indexed.count < limit
                if allFound {
                    _ = try connection.run(
                        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        [.text(Self.versionKey), .blob(Self.versionBytes)])
                }
                return (indexed: indexed, allFound: allFound)
            }
            total += batch.indexed.count
            if batch.allFound { return total }
            after = batch.indexed.last
        }
    }

    /// Runs `batch` in a write of its own with up to `size` listings, halving `size` while the
    /// write fails every attempt with a failure that running it again may mend (on Postgres:
    /// serialization failures and deadlocks, or a connection lost before `COMMIT`). A bulk
    /// batch is a serializable transaction that reads and writes much (500 listings' rows, the
    /// counts of most of the vocabulary), so on a Postgres shop taking edits, suspensions and
    /// payments it often loses to them and runs again: about a dozen times a run in
    /// `SearchRaceTests` (2026-11-30), where once in about 50 runs a transaction lost all ten of
    /// its attempts. A smaller batch is over sooner and touches fewer rows, so it overlaps fewer
    /// of the writes beside it. A batch that succeeds doubles `size` back towards
    /// ``SearchIndex/batchSize``, unless it took longer than ``batchBudget`` (waiting for the
    /// writer included), which halves it instead; one of a single listing that still fails throws.
    private func shrinking<Result: Sendable>(
        _ size: inout Int, _ batch: (Database.Connection, Int) throws -> Result
    ) async throws(KeyCatError) -> Result {
        while true {
            let limit = size
            do {
                let started = ContinuousClock.now
                let result = try await database.write { connection in try batch(connection, limit) }
                size = Self.nextSize(after: limit, took: ContinuousClock.now - started, budget: batchBudget)
                return result
            } catch let error as any DatabaseError where error.isTransientTransactionFailure && size > 1 {
                size /= 2
            } catch {
                throw KeyCatError.storage(error)
            }
        }
    }

    /// The size of the batch after one of `limit` listings that took `elapsed`: half as many
    /// when it overran `budget`; otherwise twice as many, up to ``SearchIndex/batchSize``, but
    /// no more than its pace fits in the budget (a batch of 250 in 0.9 s of a second's budget is
    /// followed by one of 277, not 500).
    static func nextSize(after limit: Int, took elapsed: Duration, budget: Duration) -> Int {
        if elapsed > budget { return max(1, limit / 2) }
        let grown = min(SearchIndex.batchSize, limit * 2)
        guard elapsed > .zero else { return grown }
        let fitting = Double(limit) * (budget / elapsed)
        return fitting >= Double(grown) ? grown : max(limit, Int(fitting))
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
    /// listing's entries replaced in one step); then the entries of deleted listings go and the
    /// vocabulary's counts are corrected to what each listed listing lends it, without holding
    /// the writer while the whole index is read (``repairLeftovers()``).
    ///
    /// Each listing is indexed against the postings `search_terms` holds for its terms, sought
    /// by their keys, unless the postings were found to be exactly the forward terms first (one
    /// read of each, compared by ``SearchPostingDigest``): then against its forward terms, which
    /// every write keeps in step with its postings, and no posting is sought. A posting written
    /// behind the index's back during the rebuild is still found by the last step's count.
    ///
    /// - Parameter progress: called after each batch with the number indexed so far.
    package func reindex(progress: (Int) -> Void = { _ in }) async throws(KeyCatError) -> Int {
        let checkingPostings = try await storage {
            try await database.read { try !SearchPostingDigest.postingsAreForwardTerms(on: $0) }
        }
        var after: ProductID?
        var total = 0
        var size = firstBatch
        while true {
            let start = after
            let (last, count) = try await shrinking(&size) { connection, limit in
                let last = try SearchIndex.reindex(after: start, limit: limit, checkingPostings: checkingPostings, on: connection)
                return (last, try connection.queryOne(
                    "SELECT count(*) FROM products WHERE deleted_at IS NULL AND id > ? AND id <= ?",
                    [.integer(start?.rawValue ?? 0), .integer(last?.rawValue ?? 0)]) { $0.int(0) } ?? 0)
            }
            guard let last else { break }
            total += count
            progress(total)
            after = last
        }
        try await repairLeftovers()
        return total
    }

    /// Takes deleted listings' entries out (their postings by their keys, from their forward
    /// terms), then the postings that are no listing's forward terms, if any, and corrects every
    /// vocabulary count that is not what the listed listings' stored words add up to.
    ///
    /// Run after every live listing was indexed again (``SearchIndex/reindex(after:limit:checkingPostings:on:)``),
    /// against its postings or against forward terms known to be them: each forward term then
    /// has its posting, so `search_terms` holding more rows than the forward terms add up to
    /// means postings written behind the index's back. Finding those reads every posting with
    /// its listing's document, so it runs only then.
    ///
    /// None of it holds the writer while it reads the whole index: on SQLite the one writer is
    /// the shop's, and a write that waits past the busy timeout (5 s) fails. The deleted
    /// listings go a batch a transaction; the postings and counts are surveyed in one read
    /// snapshot, and only what is wrong is written (``mend(betweenSurveyAndRepair:)``). (Until
    /// 2026-12-01 all of it was one write transaction: at a million listings its reads alone
    /// took 9.4 s, so the shop's writes beside a rebuild failed.) Stray postings, found only in
    /// an index changed behind KeyCat's back, still go in one statement that reads every posting.
    private func repairLeftovers() async throws(KeyCatError) {
        var after: Int64? = 0
        while let start = after {
            after = try await storage { try await database.write { try SearchIndex.removeDeletedListings(after: start, on: $0) } }
        }
        try await mend()
    }

    /// Surveys the postings and counts and repairs what is wrong, until a survey finds nothing,
    /// at most three rounds. Each count is set to what the survey expected only if it still
    /// holds what the survey read, so a count a write or a second rebuild moved since is left for
    /// the next round, never corrected twice. A write between a survey and its repair can still
    /// leave a count wrong (a count already too low stays at zero when a withdrawal lowers it,
    /// and then the repair sets it one too high); the next survey sees that. Returns whether the
    /// last survey found nothing.
    ///
    /// - Parameter betweenSurveyAndRepair: run after the first survey, before its repair (tests).
    @discardableResult
    package func mend(betweenSurveyAndRepair: () async -> Void = {}) async throws(KeyCatError) -> Bool {
        for round in 0..<3 {
            let survey = try await storage { try await database.read { try Self.survey(on: $0) } }
            if !survey.strayPostings && survey.counts.isEmpty { return true }
            if round == 0 { await betweenSurveyAndRepair() }
            try await repair(survey)
        }
        return false
    }

    /// Writes what `survey` found wrong right: the stray postings go, and each wrong count that
    /// still holds what the survey read becomes what it expected, ``SearchIndex/statementsPerBatch``
    /// counts a transaction.
    private func repair(_ survey: LeftoverSurvey) async throws(KeyCatError) {
        if survey.strayPostings {
            try await storage {
                try await database.write { connection in
                    // A line of the forward terms starts after a line feed and ends its term at a space.
                    _ = try connection.run("""
                        DELETE FROM search_terms WHERE NOT EXISTS (
                            SELECT 1 FROM search_documents d WHERE d.product_id = search_terms.product_id
                            AND \(connection.dialect.position(of: "? || search_terms.term || ' '", in: "? || d.terms")) > 0)
                        """, [.text("\n"), .text("\n")])
                }
            }
        }
        for start in stride(from: 0, to: survey.counts.count, by: SearchIndex.statementsPerBatch) {
            let chunk = survey.counts[start..<min(start + SearchIndex.statementsPerBatch, survey.counts.count)]
            try await storage {
                try await database.write { connection in
                    // A word the table lacked is added unless another write added it since.
                    let statements: [SQLStatement<Database.Connection.Row>] = chunk.map { count in
                        guard let stored = count.stored else {
                            return .run("""
                                INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, ?)
                                ON CONFLICT (word, kind) DO NOTHING
                                """, [.text(count.entry.key), .text(count.entry.kind.rawValue), .text(count.entry.display),
                                      .text(count.entry.spelling), count.entry.initials.map(SQLValue.text) ?? .null, .int(count.expected)])
                        }
                        return .run("UPDATE search_words SET products = ? WHERE word = ? AND kind = ? AND products = ?",
                                    [.int(count.expected), .text(count.entry.key), .text(count.entry.kind.rawValue), .int(stored)])
                    }
                    try connection.batch(statements, atMost: SearchIndex.statementsPerBatch)
                }
            }
        }
    }

    /// What ``mend(betweenSurveyAndRepair:)`` finds in one snapshot: whether `search_terms` holds
    /// postings beyond the forward terms, and each vocabulary count that is not what the listed
    /// listings' words add up to (`stored` nil: the word has no row), in the order of
    /// `search_words`' key, (word, kind) by their bytes, as every writer of the counts takes
    /// their rows. A word missing from the table comes back with its key as its display.
    struct LeftoverSurvey: Sendable {
        let strayPostings: Bool
        let counts: [(entry: SearchAnalyzer.VocabularyEntry, stored: Int?, expected: Int)]
    }

    private static func survey<Connection: SQLConnection>(on connection: Connection) throws -> LeftoverSurvey {
        var expected: [String: Int] = [:]
        var forwardPostings = 0
        // Only the words of a listing that counts (`counted`) lend the vocabulary their counts.
        try SearchIndex.forEachDocumentPage("words, counted, terms", on: connection, decode: { row in
            (words: row.bool(2) ? row.string(1) : "", terms: SearchIndex.termCount(row.string(3)))
        }) { documents in
            for document in documents {
                for word in document.words.split(separator: "\n") { expected[String(word), default: 0] += 1 }
                forwardPostings += document.terms
            }
        }
        let strayPostings = try postingCount(on: connection) != forwardPostings
        var stored: [String: Int] = [:]
        try connection.forEach("SELECT kind, word, products FROM search_words", []) { row in
            stored["\(row.string(0)):\(row.string(1))"] = row.int(2)
        }
        let keys = Set(expected.keys).union(stored.keys)
        let counts: [(entry: SearchAnalyzer.VocabularyEntry, stored: Int?, expected: Int)] = keys.compactMap { key in
            guard expected[key] ?? 0 != stored[key] ?? 0, let (kind, word) = SearchIndex.storedWord(key[...]),
                  let kind = SearchAnalyzer.VocabularyEntry.Kind(rawValue: kind) else { return nil }
            return (SearchAnalyzer.VocabularyEntry(kind: kind, display: word, key: word), stored[key], expected[key] ?? 0)
        }
        return LeftoverSurvey(strayPostings: strayPostings, counts: counts.sorted { $0.entry < $1.entry })
    }

    /// How many rows `search_terms` has.
    static func postingCount(on connection: some SQLConnection) throws -> Int {
        try connection.queryOne("SELECT count(*) FROM search_terms", []) { $0.int(0) } ?? 0
    }
}
