import KeyCatDomain
import KeyCatInfrastructure

/// Turns a query into its ``SearchPlan`` with what the store knows: the operators' synonyms,
/// the vocabulary's words one typo away from a Latin word no term starts with, and the words
/// that initials abbreviate. Each lookup is one statement, run only when the query asks for it.
enum SearchPlanner {
    /// The most words initials stand for, the most common first.
    static let initialsExpansion = 8
    /// The most words a misspelt word may stand for.
    static let typoExpansion = 5

    ///
    /// - Parameter trace: handed each statement before it runs (``SearchExecution``).
    static func plan(for query: SearchQuery, on connection: some SQLConnection,
                     trace: ((String, [SQLValue]) -> Void)? = nil) throws -> SearchPlan {
        var synonyms: [String: [String]] = [:]
        // Sorted and each once, so that a query's statement is the same text with the same
        // arguments each time. A query has a few keys: sorting and dropping neighbours that
        // repeat costs less than hashing them into a set.
        var keys = query.synonymKeys
        keys.sortDroppingRepeats()
        if !keys.isEmpty {
            let sql = synonymsSQL(count: keys.count)
            let arguments = keys.map(SQLValue.text)
            trace?(sql, arguments)
            try connection.forEach(sql, arguments) { row in synonyms[row.string(0), default: []].append(row.string(1)) }
        }
        var typos: [String: [String]] = [:]
        for word in query.typoCandidates {
            // Known from a listed listing only: a term only hidden listings have would otherwise
            // tell, by the typo forgiven or not, whether they hold it.
            let knownSQL = """
                SELECT 1 FROM search_terms t JOIN products p ON p.id = t.product_id
                WHERE t.term >= ? AND t.term < ? AND p.listed = 1 LIMIT 1
                """
            trace?(knownSQL, [.text(word), .text(word + "\u{10FFFF}")])
            let known = try connection.queryOne(knownSQL, [.text(word), .text(word + "\u{10FFFF}")]) { _ in true } ?? false
            guard !known else { continue }
            // Every spelling one edit away, looked up by the vocabulary's key: a few hundred
            // seeks, whatever the vocabulary's size (scanning it for near words would read every
            // title of a million listings).
            var near: [(word: String, products: Int)] = []
            let variants = TypoDistance.oneEditVariants(of: word)
            let nearSQL = """
                SELECT word, products FROM search_words
                WHERE kind = 'word' AND products > 0 AND word IN (\(Array(repeating: "?", count: variants.count).joined(separator: ", ")))
                """
            trace?(nearSQL, variants.map(SQLValue.text))
            try connection.forEach(nearSQL, variants.map(SQLValue.text)) { row in near.append((row.string(0), row.int(1))) }
            typos[word] = near.sorted { ($0.products, $1.word) > ($1.products, $0.word) }.prefix(typoExpansion).map(\.word)
        }
        var initials: [String: [String]] = [:]
        for word in query.initialsWords {
            // Title words and tags alike, as the suggestions offer them; a word that is both
            // counts once, by its larger count.
            let sql = """
                SELECT word FROM search_words WHERE initials = ? AND kind IN ('word', 'tag') AND products > 0
                GROUP BY word ORDER BY max(products) DESC, word LIMIT ?
                """
            trace?(sql, [.text(word), .int(initialsExpansion)])
            initials[word] = try connection.query(sql, [.text(word), .int(initialsExpansion)]) { $0.string(0) }
        }
        return SearchPlan(query, synonyms: synonyms, typos: typos, initials: initials)
    }

    /// The plan's Latin prefixes spelt out into the index's terms (``SearchTerms``), one
    /// statement per prefix.
    static func terms(of plan: SearchPlan, on connection: some SQLConnection,
                      trace: ((String, [SQLValue]) -> Void)? = nil) throws -> SearchTerms {
        var terms = SearchTerms()
        var prefixes = plan.groups.flatMap(\.prefixes)
        prefixes.sortDroppingRepeats()
        for prefix in prefixes {
            let arguments = SearchTerms.expansionArguments(prefix)
            trace?(SearchTerms.expansionSQL, arguments)
            let found = try connection.query(SearchTerms.expansionSQL, arguments) { $0.string(0) }
            // Past the most, the prefix is narrowed (``SearchTerms``).
            guard found.count > SearchTerms.maximumExpansion else {
                terms.expansions[prefix] = found
                continue
            }
            var titleWords: [(word: String, listings: Int)] = []
            if SearchPlan.keepsTitleWords(prefix) {
                let arguments = SearchTerms.narrowingArguments(prefix)
                trace?(SearchTerms.narrowingSQL, arguments)
                try connection.forEach(SearchTerms.narrowingSQL, arguments) { titleWords.append((word: $0.string(0), listings: $0.int(1))) }
            }
            let narrowed = SearchPlan.narrowed(prefix, titleWords: titleWords)
            terms.expansions[prefix] = narrowed
            terms.narrowed[prefix] = narrowed
        }
        return terms
    }

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
