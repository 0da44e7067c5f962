extension SearchService {
    /// The facet counts of the listings `filter` finds, its text included when it has one, or of
    /// the filtered catalog when it has none (docs/search.md "Facets"): each facet under every
    /// filter but its own, at most ``ProductFacets/candidateLimit`` listings examined.
    ///
    /// - Throws: `validation` on a price bound or a tag, as ``ProductFilter/validate()`` checks.
    public func facets(filter: ProductFilter) async throws(KeyCatError) -> ProductFacets {
        try filter.validate()
        let tally = try await index.facetTally(for: filter, limit: ProductFacets.candidateLimit)
        return ProductFacets(tally: tally, filter: filter)
    }

    /// Up to `query.limit` completions of what a buyer is typing, from the words, tags and
    /// titles of live listings, ranked as ``SearchSuggestion/ranked(_:limit:)`` says
    /// (docs/search.md "Suggestions").
    public func suggestions(_ query: SuggestionQuery) async throws(KeyCatError) -> [SearchSuggestion] {
        SearchSuggestion.ranked(try await index.completions(of: query), limit: query.limit)
    }
}
