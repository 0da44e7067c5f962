import KeyCatDomain
import KeyCatInfrastructure

/// The terms of `search_terms` a plan's groups ask for, as SQL on a row `t` of it: exact terms,
/// forgiven typos, and each Latin prefix spelt out as the terms the index has under it
/// (`gater` → `gateron`), so that every group is a list of terms, each one range of the
/// postings' key. A prefix with more than ``maximumExpansion`` terms is narrowed
/// (``SearchPlan/narrowed(_:titleWords:)``: one or two letters, `m`, to the whole word, as one
/// Hangul syllable; a longer one to itself and its commonest title words): kept a range of
/// terms, checking one candidate against it read every posting under the prefix (a `q=m m m`
/// of nine such checks per candidate took seconds at 100,000 listings).
struct SearchTerms {
    /// For each prefix of the plan spelt out, the terms it stands for; a prefix not here
    /// matches only as a whole word.
    var expansions: [String: [String]] = [:]
    /// The prefixes with more than ``maximumExpansion`` words under them, each with the words
    /// it was narrowed to (also its ``expansions``).
    var narrowed: [String: [String]] = [:]

    /// The most terms a prefix is spelt out into.
    static let maximumExpansion = SearchPlan.maximumPrefixWords

    /// The statement that spells out a prefix: the index's terms from the prefix on, one seek
    /// each (a loose index scan), at most `maximumExpansion + 1` of them.
    static let expansionSQL = """
        WITH RECURSIVE found(term) AS (
            SELECT (SELECT min(t.term) FROM search_terms t WHERE t.term >= ? AND t.term < ?)
            UNION ALL
            SELECT (SELECT min(t.term) FROM search_terms t WHERE t.term > found.term AND t.term < ?)
            FROM found WHERE found.term IS NOT NULL
        )
        SELECT term FROM found WHERE term IS NOT NULL LIMIT ?
        """

    private static let expansionLimit = SQLValue.int(maximumExpansion + 1)

    /// The statement that narrows a broad prefix of three characters or more: the vocabulary's
    /// title words under it that listed listings have, commonest first, ties by their bytes
    /// (``SearchPlan/narrowed(_:titleWords:)``). It reads the vocabulary's key from the prefix
    /// on, titles under it included; only a prefix with more than 64 words under it asks.
    static let narrowingSQL = """
        SELECT word, products FROM search_words
        WHERE word >= ? AND word < ? AND kind = 'word' AND products > 0 AND word <> ?
        ORDER BY products DESC, word LIMIT ?
        """

    /// The arguments of ``narrowingSQL`` for `prefix`.
    static func narrowingArguments(_ prefix: String) -> [SQLValue] {
        [.text(prefix), .text(prefix + "\u{10FFFF}"), .text(prefix), .int(maximumExpansion - 1)]
    }

    /// The arguments of ``expansionSQL`` for `prefix`.
    static func expansionArguments(_ prefix: String) -> [SQLValue] {
        let end = SQLValue.text(prefix + "\u{10FFFF}")
        return [.text(prefix), end, end, expansionLimit]
    }

    /// The terms a group matches: its own, those its prefixes were spelt out into, and each
    /// prefix not spelt out as a whole word.
    func listed(_ group: SearchPlan.Group) -> [String] {
        var terms = group.exact + group.forgiven
        for prefix in group.prefixes { terms += expansions[prefix] ?? [prefix] }
        guard terms.count > 1 else { return terms }
        var seen: Set<String> = []
        return terms.filter { seen.insert($0).inserted }
    }

    /// Whether the group is one term: each listing has at most one posting of it.
    func isSingleTerm(_ group: SearchPlan.Group) -> Bool {
        listed(group).count == 1
    }

    /// A group's condition on the term of `row`, a row of `search_terms`.
    func condition(of group: SearchPlan.Group, on row: String = "t") -> (String, [SQLValue]) {
        Self.condition(matching: listed(group), on: row)
    }

    /// The condition that `row`'s term is one of `terms`. No terms (initials that abbreviate
    /// nothing, a prefix nothing starts with) match nothing.
    static func condition(matching terms: [String], on row: String = "t") -> (String, [SQLValue]) {
        switch terms.count {
        case 0: ("1 = 0", [])
        case 1: ("\(row).term = ?", [.text(terms[0])])
        default: ("\(row).term IN (\(Array(repeating: "?", count: terms.count).joined(separator: ", ")))", terms.map(SQLValue.text))
        }
    }

    /// A group's score of `row`, one of its rows of `search_terms`: exact terms (and a prefix
    /// met exactly) twice their weight, the rest (longer words by prefix, forgiven typos) once.
    func score(of group: SearchPlan.Group, on row: String = "t") -> (String, [SQLValue]) {
        let doubled = group.exact + group.prefixes
        if group.prefixes.isEmpty && group.forgiven.isEmpty { return ("\(row).weight * 2", []) }
        if isSingleTerm(group), let term = listed(group).first {
            // The one term is known: its factor is too.
            return ("\(row).weight * \(doubled.contains(term) ? 2 : 1)", [])
        }
        return ("\(row).weight * CASE WHEN \(row).term IN (\(Array(repeating: "?", count: doubled.count).joined(separator: ", "))) THEN 2 ELSE 1 END",
                doubled.map(SQLValue.text))
    }

    /// A statement counting each group's postings up to `cap`, so that the rarest one drives;
    /// with a `floor`, only its postings of listings from the floor on.
    func groupSizes(of plan: SearchPlan, cap: Int, floor: Int64 = 0) -> (sql: String, arguments: [SQLValue]) {
        var arguments: [SQLValue] = []
        let counts = plan.groups.map { group in
            let (condition, conditionArguments) = self.condition(of: group)
            arguments += conditionArguments + (floor > 0 ? [.integer(floor)] : []) + [.int(cap)]
            let above = floor > 0 ? " AND t.product_id >= ?" : ""
            return "(SELECT count(*) FROM (SELECT 1 FROM search_terms t WHERE (\(condition))\(above) LIMIT ?) x)"
        }
        return ("SELECT " + counts.joined(separator: ", "), arguments)
    }
}
