import KeyCatDomain
import KeyCatInfrastructure

/// Turns a query into its ``SearchPlan`` with what the store knows: the operators' synonyms,
/// the vocabulary's words one typo away from a Latin word no term starts with, and the words
/// that initials abbreviate. Each lookup is one statement, run only when the query asks for it,
/// and those that do not wait for another's answer travel together (``prepare(_:on:alongside:trace:)``).
enum SearchPlanner {
    /// The most words initials stand for, the most common first.
    static let initialsExpansion = 8
    /// The most words a misspelt word may stand for.
    static let typoExpansion = 5

    /// A query's plan and its Latin prefixes spelt out into the index's terms (``SearchTerms``):
    /// what a page, a facet count and `search explain` start from.
    ///
    /// The look-ups that do not depend on one another travel together, one exchange with the
    /// store (on Postgres one round trip, where until 2026-12-02 each was one): the synonyms,
    /// whether a listed listing has a word starting with each word a typo may be forgiven in, the
    /// words each run of initials abbreviates, and the query's own prefixes spelt out. Only what
    /// their answers ask for follows, together again: the words one edit away from a word no
    /// listed listing knows, a synonym's prefixes spelt out, and a prefix with more than
    /// ``SearchTerms/maximumExpansion`` words under it narrowed; and the narrowing of a
    /// synonym's prefix, last. A Korean query without synonyms is one exchange; `gater` is one
    /// (it was three).
    ///
    /// A query whose plan can only change by its synonyms (no prefix, no word a typo may be
    /// forgiven in, no initials) sends `alongside`'s statements for the plan without synonyms in
    /// the same exchange: what the search runs next, ready when most queries, which have no
    /// synonyms, need it. `answeredAlongside` says whether the plan is that one, so their
    /// answers hold.
    ///
    /// - Parameters:
    ///   - alongside: the statements that follow a plan, for a plan known before its look-ups
    ///     are answered.
    ///   - trace: handed each statement before it runs (``SearchExecution``); the statements of
    ///     one exchange are handed over before it.
    static func prepare<Connection: SQLConnection>(
        _ query: SearchQuery, on connection: Connection,
        alongside: ((SearchPlan, SearchTerms) -> [SQLStatement<Connection.Row>])? = nil,
        trace: ((String, [SQLValue]) -> Void)? = nil
    ) throws -> (plan: SearchPlan, terms: SearchTerms, answeredAlongside: Bool) {
        let answers = Answers()
        var first: [SQLStatement<Connection.Row>] = []
        // Sorted and each once, so that a query's statement is the same text with the same
        // arguments each time. A query has a few keys: sorting and dropping neighbours that
        // repeat costs less than hashing them into a set.
        var keys = query.synonymKeys
        keys.sortDroppingRepeats()
        if !keys.isEmpty {
            first.append(.query(synonymsSQL(count: keys.count), keys.map(SQLValue.text)) { row in
                answers.synonyms[row.string(0), default: []].append(row.string(1))
            })
        }
        let candidates = query.typoCandidates
        for word in candidates {
            // Known from a listed listing only: a term only hidden listings have would otherwise
            // tell, by the typo forgiven or not, whether they hold it.
            first.append(.query(knownSQL, [.text(word), .text(word + "\u{10FFFF}")]) { _ in answers.known.insert(word) })
        }
        var initialsWords = query.initialsWords
        initialsWords.sortDroppingRepeats()
        for word in initialsWords {
            answers.initials[word] = []
            first.append(.query(initialsSQL, [.text(word), .int(initialsExpansion)]) { row in
                answers.initials[word, default: []].append(row.string(0))
            })
        }
        // A typo adds no prefix, and synonyms only add to the query's own: its own are spelt out now.
        let withoutSynonyms = SearchPlan(query)
        let own = prefixes(of: withoutSynonyms)
        first += own.map { spellingOut($0, into: answers) }
        let speculating = own.isEmpty && candidates.isEmpty && initialsWords.isEmpty
        if speculating, let alongside { first += alongside(withoutSynonyms, SearchTerms()) }
        try exchange(first, on: connection, trace: trace)
        if speculating && answers.synonyms.isEmpty { return (withoutSynonyms, SearchTerms(), alongside != nil) }

        var second: [SQLStatement<Connection.Row>] = []
        for word in candidates where !answers.known.contains(word) {
            // Every spelling one edit away, looked up by the vocabulary's key: a few hundred
            // seeks, whatever the vocabulary's size (scanning it for near words would read every
            // title of a million listings).
            let variants = TypoDistance.oneEditVariants(of: word)
            answers.near[word] = []
            second.append(.query(nearSQL(count: variants.count), variants.map(SQLValue.text)) { row in
                answers.near[word, default: []].append((row.string(0), row.int(1)))
            })
        }
        let synonyms = answers.synonyms, initials = answers.initials
        let added = prefixes(of: SearchPlan(query, synonyms: synonyms, initials: initials)).filter { answers.found[$0] == nil }
        second += added.map { spellingOut($0, into: answers) }
        second += own.compactMap { narrowing($0, into: answers) }
        try exchange(second, on: connection, trace: trace)
        try exchange(added.compactMap { narrowing($0, into: answers) }, on: connection, trace: trace)

        var typos: [String: [String]] = [:]
        for (word, near) in answers.near {
            typos[word] = near.sorted { ($0.products, $1.word) > ($1.products, $0.word) }.prefix(typoExpansion).map(\.word)
        }
        var terms = SearchTerms()
        for (prefix, found) in answers.found {
            // Past the most, the prefix is narrowed (``SearchTerms``).
            guard found.count > SearchTerms.maximumExpansion else {
                terms.expansions[prefix] = found
                continue
            }
            let narrowed = SearchPlan.narrowed(prefix, titleWords: answers.titleWords[prefix] ?? [])
            terms.expansions[prefix] = narrowed
            terms.narrowed[prefix] = narrowed
        }
        return (SearchPlan(query, synonyms: synonyms, typos: typos, initials: initials), terms, false)
    }

    /// What the look-ups of ``prepare(_:on:alongside:trace:)`` answer, gathered as their rows arrive.
    private final class Answers {
        var synonyms: [String: [String]] = [:]
        /// The words a typo may be forgiven in that a listed listing has a word starting with.
        var known: Set<String> = []
        var initials: [String: [String]] = [:]
        /// For each word no listed listing knows, the vocabulary's words one edit away.
        var near: [String: [(word: String, products: Int)]] = [:]
        /// For each prefix spelt out, the terms under it (one past the most).
        var found: [String: [String]] = [:]
        /// For each prefix narrowed, its commonest title words.
        var titleWords: [String: [(word: String, listings: Int)]] = [:]
    }

    /// Runs `statements` as one exchange, each handed to `trace` first.
    private static func exchange<Connection: SQLConnection>(
        _ statements: [SQLStatement<Connection.Row>], on connection: Connection, trace: ((String, [SQLValue]) -> Void)?
    ) throws {
        guard !statements.isEmpty else { return }
        for statement in statements { trace?(statement.sql, statement.arguments) }
        try connection.batch(statements)
    }

    /// A plan's Latin prefixes, sorted and each once.
    private static func prefixes(of plan: SearchPlan) -> [String] {
        var prefixes = plan.groups.flatMap(\.prefixes)
        prefixes.sortDroppingRepeats()
        return prefixes
    }

    /// The statement spelling `prefix` out into the index's terms (``SearchTerms/expansionSQL``).
    private static func spellingOut<Row: SQLRow>(_ prefix: String, into answers: Answers) -> SQLStatement<Row> {
        answers.found[prefix] = []
        return .query(SearchTerms.expansionSQL, SearchTerms.expansionArguments(prefix)) { row in
            answers.found[prefix, default: []].append(row.string(0))
        }
    }

    /// The statement narrowing `prefix` to its commonest title words, when it was spelt out into
    /// more than the most and is long enough to keep any (``SearchPlan/keepsTitleWords(_:)``).
    private static func narrowing<Row: SQLRow>(_ prefix: String, into answers: Answers) -> SQLStatement<Row>? {
        guard answers.found[prefix]?.count ?? 0 > SearchTerms.maximumExpansion, SearchPlan.keepsTitleWords(prefix) else { return nil }
        answers.titleWords[prefix] = []
        return .query(SearchTerms.narrowingSQL, SearchTerms.narrowingArguments(prefix)) { row in
            answers.titleWords[prefix, default: []].append((word: row.string(0), listings: row.int(1)))
        }
    }

    private static let knownSQL = """
        SELECT 1 FROM search_terms t JOIN products p ON p.id = t.product_id
        WHERE t.term >= ? AND t.term < ? AND p.listed = 1 LIMIT 1
        """

    private static func nearSQL(count: Int) -> String {
        """
        SELECT word, products FROM search_words
        WHERE kind = 'word' AND products > 0 AND word IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))
        """
    }

    /// Title words and tags alike, as the suggestions offer them; a word that is both counts
    /// once, by its larger count.
    private static let initialsSQL = """
        SELECT word FROM search_words WHERE initials = ? AND kind IN ('word', 'tag') AND products > 0
        GROUP BY word ORDER BY max(products) DESC, word LIMIT ?
        """

    /// The synonyms' look-up for `count` keys; the texts for up to the most keys a query has
    /// are built once.
    private static func synonymsSQL(count: Int) -> String {
        count < synonymsSQLTexts.count ? synonymsSQLTexts[count] : synonymsText(count)
    }

    private static let synonymsSQLTexts = (0...2 * SearchQuery.maximumWords).map(synonymsText)

    private static func synonymsText(_ count: Int) -> String {
        "SELECT word, synonym FROM search_synonyms WHERE word IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }
}
