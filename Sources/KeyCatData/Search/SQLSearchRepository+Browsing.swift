import KeyCatDomain
import KeyCatInfrastructure

/// Facet counts and as-you-type completions: reads whose cost is bounded however broad the
/// query (docs/search.md "Facets", "Suggestions"), their statements run by ``SearchExecution``.
extension SQLSearchRepository {
    package func facetTally(for filter: ProductFilter, limit: Int) async throws(KeyCatError) -> FacetTally {
        try await storage { try await database.read { try SearchExecution.facetTally(for: filter, limit: limit, on: $0) } }
    }

    package func completions(of query: SuggestionQuery) async throws(KeyCatError) -> [SearchSuggestion] {
        try await storage { try await database.readStatement { try SearchExecution.completions(of: query, on: $0) } }
    }
}
