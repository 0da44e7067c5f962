import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// Facet counts and suggestions over the synthetic catalog (issue 42, items 4 and 5), each
/// through KeyCat and through ``RawSearchBrowsingReplay`` running the statements KeyCat ran for
/// it, as ``SearchScenarios`` does for pages: the statements are traced through
/// ``SearchExecution`` on a connection of the same store.
///
/// Beside the ratio, the issue holds these rows to times on the million-listing catalog: a
/// broad term's facet counts within 50 ms, suggestions within 10 ms at p99.
struct SearchFacetScenarios<Connection: SQLConnection> {
    let keycat: KeyCat
    let raw: any RawSearchBrowsingReplay
    /// Where the statements are traced.
    let connection: Connection
    let operations: Int
    let log: (String) -> Void

    /// The exchanges `connection` has had with its store so far, where statements can share
    /// one (Postgres): the statements traced between the same two travelled together.
    private func exchange() -> Int? {
        (connection as? PostgresConnection)?.roundTripCount
    }

    /// A facet count of the mix.
    struct FacetCase {
        var name: String
        var text: String?
        var narrow: (inout ProductFilter) -> Void = { _ in }
    }

    /// A broad term (a third of the catalog: its count is cut at the candidate limit), two words
    /// with a filter, and the filtered catalog without text.
    static var facetCases: [FacetCase] {
        [
            FacetCase(name: "facets, broad term: 키보드", text: "키보드"),
            FacetCase(name: "facets, 2 words + filter: 적축 키보드, keyboards", text: "적축 키보드") { $0.category = .keyboard },
            FacetCase(name: "facets, no text: keycaps", text: nil) { $0.category = .keycap },
        ]
    }

    /// A partial Latin word, a partial Hangul syllable sequence, initials and a two-syllable prefix.
    static var suggestionCases: [(name: String, text: String)] {
        [
            ("suggestions, partial Latin: gat", "gat"),
            ("suggestions, partial syllables: 기계ㅅ", "기계ㅅ"),
            ("suggestions, initials: ㄱㅊ", "ㄱㅊ"),
            ("suggestions, 2-syllable prefix: 키보", "키보"),
        ]
    }

    func run() async throws -> [Comparison] {
        var rows: [Comparison] = []
        let selection = SearchRowSelection()
        for facetCase in Self.facetCases where selection.selects(facetCase.name) {
            rows.append(try await row(for: facetCase))
        }
        for suggestionCase in Self.suggestionCases where selection.selects(suggestionCase.name) {
            rows.append(try await row(suggesting: suggestionCase.text, name: suggestionCase.name))
        }
        return rows
    }

    private func row(for facetCase: FacetCase) async throws -> Comparison {
        var filter = ProductFilter(text: try facetCase.text.map { try SearchQuery($0) })
        facetCase.narrow(&filter)
        var statements: [TracedStatement] = []
        let traced = try SearchExecution.facetTally(for: filter, limit: ProductFacets.candidateLimit, on: connection) {
            statements.append(TracedStatement(sql: $0, arguments: $1, exchange: exchange()))
        }
        let chosen = [filter.category?.rawValue, filter.kind?.rawValue, filter.switchType?.rawValue,
                      filter.layout?.rawValue, filter.connection?.rawValue]
        // All three must give the same counts, or the comparison means nothing.
        let library = try await keycat.search.facets(filter: filter)
        let rawCounts = try raw.facets(statements, chosen: chosen)
        guard library == ProductFacets(tally: traced, filter: filter), Self.plainCounts(of: library) == rawCounts else {
            throw RawDatabase.Failure(description: "\(facetCase.name): library and baseline disagree")
        }
        log("\(facetCase.name): total \(library.total)\(library.isApproximate ? " (approximate)" : ""), "
            + "\(traced.counts.count) combinations, \(statements.count) statements")
        return try await compare(facetCase.name, operations: operations, warmup: 20, target: .timeRatioAtMost(1.25),
            library: { _ in _ = try await keycat.search.facets(filter: filter) },
            baseline: { _ in _ = try raw.facets(statements, chosen: chosen) })
    }

    private func row(suggesting text: String, name: String) async throws -> Comparison {
        let query = try SuggestionQuery(text)
        var statements: [TracedStatement] = []
        let candidates = try SearchExecution.completions(of: query, on: connection) {
            statements.append(TracedStatement(sql: $0, arguments: $1, exchange: exchange()))
        }
        // All three must give the same suggestions, or the comparison means nothing.
        let library = try await keycat.search.suggestions(query)
        let rawSuggestions = try raw.suggestions(statements, limit: query.limit)
        guard library == SearchSuggestion.ranked(candidates, limit: query.limit),
              library.map({ RawSuggestion(text: $0.text, kind: $0.kind.rawValue, listings: $0.listings) }) == rawSuggestions else {
            throw RawDatabase.Failure(description: "\(name): library and baseline disagree")
        }
        log("\(name): \(library.count) of \(candidates.count) candidates (\(library.map(\.text).prefix(3).joined(separator: ", ")), …)")
        return try await compare(name, operations: operations, warmup: 20, target: .timeRatioAtMost(1.25),
            library: { _ in _ = try await keycat.search.suggestions(query) },
            baseline: { _ in _ = try raw.suggestions(statements, limit: query.limit) })
    }

    /// The counts of `facets` as the baseline gives them: `facet=value` (the price band by its
    /// index, cheapest first) and `total`, zero counts left out.
    static func plainCounts(of facets: ProductFacets) -> [String: Int] {
        var counts: [String: Int] = [:]
        func add<Value>(_ facet: String, _ values: [ProductFacets.Count<Value>], _ name: (Value) -> String) {
            for value in values where value.count > 0 { counts[facet + "=" + name(value.value)] = value.count }
        }
        add("category", facets.categories) { $0.rawValue }
        add("kind", facets.kinds) { $0.rawValue }
        add("switch_type", facets.switchTypes) { $0.rawValue }
        add("layout", facets.layouts) { $0.rawValue }
        add("connection", facets.connections) { $0.rawValue }
        add("price", facets.priceBands) { band in PriceBand.all.firstIndex(of: band).map(String.init) ?? "?" }
        if facets.total > 0 { counts["total"] = facets.total }
        return counts
    }
}
