import KeyCat

/// Search beside the list (`GET /products?q=…`): facet counts and as-you-type suggestions.
/// Both are catalog reads, the same for every caller, so they are answered through the catalog
/// cache with an `ETag` like the list (``RequestContext/catalogRead(_:_:)``).
enum SearchRoutes {
    static let facetsQuery = ProductRoutes.filterQuery

    static let routes: [Route] = [
        Route(.get, "/products/facets", .anyone, query: facetsQuery, waitsOnStorage: false) { context in
            let filter = try facetsFilter(context)
            return try await context.catalogRead(.facets(filter)) { () async throws(KeyCatError) in
                (.json(FacetsBody(try await context.keycat.search.facets(filter: filter))), nil)
            }
        },
        Route(.get, "/products/suggestions", .anyone, query: ["q", "limit"], waitsOnStorage: false) { context in
            let query = try suggestionQuery(context)
            return try await context.catalogRead(.suggestions(query)) { () async throws(KeyCatError) in
                (.json(SuggestionsBody(try await context.keycat.search.suggestions(query))), nil)
            }
        },
    ]

    /// The list's filters, the search text `q` and the `tag` among them.
    static func facetsFilter(_ context: RequestContext) throws(KeyCatError) -> ProductFilter {
        let filter = try ProductRoutes.filter(context)
        try filter.validate()
        return filter
    }

    /// `q` (required) and `limit` (1–10, default 10).
    static func suggestionQuery(_ context: RequestContext) throws(KeyCatError) -> SuggestionQuery {
        guard let text = try context.query("q") else { throw .validation("q", "q is required") }
        let limit = try context.integer("limit").map { value throws(KeyCatError) -> Int in
            guard let limit = Int(exactly: value), (1...SuggestionQuery.maximumLimit).contains(limit) else {
                throw .validation("limit", "limit must be between 1 and \(SuggestionQuery.maximumLimit)")
            }
            return limit
        } ?? SuggestionQuery.maximumLimit
        return try SuggestionQuery(text, limit: limit)
    }
}
