import KeyCatDomain
import KeyCatInfrastructure

/// Facet counts and as-you-type completions on one connection, statement by statement, as
/// ``SearchExecution/hits(text:filter:sort:after:limit:windowBudget:on:trace:)`` runs a page:
/// what ``SQLSearchRepository`` runs for them, and what the benchmark's raw baseline replays
/// (each `trace` is handed every statement before it runs).
extension SearchExecution {
    /// The tally of a facet count (docs/search.md "Facets"):
    ///
    /// 1. the plan of the filter's text (``SearchPlanner``): its groups, and the tag's, are
    ///    sources beside the seller; without any, the catalog is;
    /// 2. each source's entries counted one past `limit` (``SearchFacetQuery/sizes(of:cap:)``),
    ///    so that a source the limit cuts is told from one it fits: the smallest drives, and a
    ///    source without entries ends the count here;
    /// 3. the tally (``SearchFacetQuery/tally(source:others:filter:sellerChecked:limit:)``).
    ///
    /// `limit` is the listings a count of one or two sources examines; one of more sources
    /// examines fewer, `2 × limit` over their number, so its index reads stay within a
    /// two-word query's.
    package static func facetTally<Connection: SQLConnection>(
        for filter: ProductFilter, limit: Int, on connection: Connection, trace: ((String, [SQLValue]) -> Void)? = nil
    ) throws -> FacetTally {
        // Each requirement as the terms it matches, prefixes spelt out as the page's search
        // spells them, so that the counts are of the listings the pages show; each source of
        // candidates; and how many listings a source's count examines. Each source is counted
        // up to that limit, and each candidate seeks every other group: a query of many words
        // examines fewer listings, so that the count's index reads stay within what a query of
        // two examines (until 2026-12-01 ten common words read some 250,000 entries).
        func sources(of plan: SearchPlan?, _ terms: SearchTerms) -> (groups: [[String]], sources: [SearchFacetQuery.Source], limit: Int) {
            var groups = plan.map { $0.groups.map(terms.listed) } ?? []
            if let tag = filter.tag { groups.append(SearchTerms().listed(.tag(tag))) }
            var sources = groups.map(SearchFacetQuery.Source.postings)
            if let seller = filter.sellerID { sources.append(.seller(seller)) }
            if sources.isEmpty { sources.append(.catalog) }
            return (groups, sources, min(limit, max(1, 2 * limit / sources.count)))
        }
        /// The smallest source drives, as the rarest group drives a search.
        func sizes(of sources: [SearchFacetQuery.Source], limit: Int) -> (sql: String, arguments: [SQLValue]) {
            SearchFacetQuery.sizes(of: sources, cap: limit + 1)
        }
        var plan: SearchPlan?, terms = SearchTerms()
        // The sources' counts travel with the plan's look-ups when the plan can only change by
        // its synonyms, as a page's first statement does (``SearchPlanner/prepare(_:on:alongside:trace:)``).
        var answered: [Int]?
        if let text = filter.text {
            let prepared = try SearchPlanner.prepare(text, on: connection, alongside: { plan, terms in
                let (groups, sources, limit) = sources(of: plan, terms)
                guard !groups.contains(where: \.isEmpty) else { return [] }
                let statement = sizes(of: sources, limit: limit)
                return [.query(statement.sql, statement.arguments) { row in answered = sources.indices.map { row.int($0) } }]
            }, trace: trace)
            (plan, terms) = (prepared.plan, prepared.terms)
            if !prepared.answeredAlongside { answered = nil }
        }
        let (groups, sources, limit) = sources(of: plan, terms)
        // A requirement no term can meet (initials that abbreviate nothing) finds nothing.
        if groups.contains(where: \.isEmpty) { return FacetTally() }
        let counts: [Int]
        if let answered {
            counts = answered
        } else {
            let statement = sizes(of: sources, limit: limit)
            trace?(statement.sql, statement.arguments)
            counts = try connection.queryOne(statement.sql, statement.arguments) { row in sources.indices.map { row.int($0) } } ?? []
        }
        guard let driving = counts.indices.min(by: { counts[$0] < counts[$1] }), counts[driving] > 0 else {
            return FacetTally()
        }
        var others = groups
        if driving < groups.count { others.remove(at: driving) }
        let query = SearchFacetQuery.tally(source: sources[driving], others: others, filter: filter,
                                           sellerChecked: driving < groups.count, limit: limit)
        trace?(query.sql, query.arguments)
        var tally = FacetTally(isCapped: counts[driving] > limit)
        try connection.forEach(query.sql, query.arguments) { row in
            tally.counts[try SearchFacetQuery.Key.cell(row.string(0)), default: 0] += row.int(1)
        }
        return tally
    }

    /// The vocabulary entries that complete `query` (docs/search.md "Suggestions"), in one
    /// statement (``SearchSuggestionQuery``), before their ranking
    /// (``SearchSuggestion/ranked(_:limit:)``).
    ///
    /// - Throws: an internal error for a kind no case has (a database written by something else).
    package static func completions(
        of query: SuggestionQuery, on connection: some SQLConnection, trace: ((String, [SQLValue]) -> Void)? = nil
    ) throws -> [SearchSuggestion] {
        let statement = SearchSuggestionQuery(query)
        trace?(statement.sql, statement.arguments)
        return try connection.query(statement.sql, statement.arguments) { row in
            guard let kind = SearchSuggestion.Kind(rawValue: row.string(1)) else {
                throw KeyCatError(.internalError, "unknown search_words kind «\(row.string(1))» in the database")
            }
            return SearchSuggestion(text: row.string(0), kind: kind, listings: row.int(2))
        }
    }
}
