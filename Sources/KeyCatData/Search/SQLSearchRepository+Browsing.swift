import KeyCatDomain
import KeyCatInfrastructure

/// Facet counts and as-you-type completions: reads whose cost is bounded however broad the
/// query (docs/search.md "Facets", "Suggestions").
extension SQLSearchRepository {
    package func facetTally(for filter: ProductFilter, limit: Int) async throws(KeyCatError) -> FacetTally {
        try await storage {
            try await database.read { connection in
                var groups = try filter.text.map { try SearchPlanner.plan(for: $0, on: connection).groups } ?? []
                if let tag = filter.tag { groups.append(.tag(tag)) }
                // A requirement no term can meet (initials that abbreviate nothing) finds nothing.
                if groups.contains(where: \.isEmpty) { return FacetTally() }
                var sources = groups.map(SearchFacetQuery.Source.postings)
                if let seller = filter.sellerID { sources.append(.seller(seller)) }
                if sources.isEmpty { sources.append(.catalog) }
                // The smallest source drives, as the rarest group drives a search; counted one
                // past the limit, so that a source the limit cuts is told from one it fits.
                let sizes = SearchFacetQuery.sizes(of: sources, cap: limit + 1)
                let counts = try connection.queryOne(sizes.sql, sizes.arguments) { row in sources.indices.map { row.int($0) } } ?? []
                guard let driving = counts.indices.min(by: { counts[$0] < counts[$1] }), counts[driving] > 0 else {
                    return FacetTally()
                }
                var others = groups
                if driving < groups.count { others.remove(at: driving) }
                let query = SearchFacetQuery.tally(source: sources[driving], others: others, filter: filter,
                                                   sellerChecked: driving < groups.count, limit: limit)
                var tally = FacetTally(isCapped: counts[driving] > limit)
                try connection.forEach(query.sql, query.arguments) { row in
                    tally.counts[try SearchFacetQuery.Key.cell(row.string(0)), default: 0] += row.int(1)
                }
                return tally
            }
        }
    }

    package func completions(of query: SuggestionQuery) async throws(KeyCatError) -> [SearchSuggestion] {
        let statement = SearchSuggestionQuery(query)
        return try await storage {
            try await database.readStatement { connection in
                try connection.query(statement.sql, statement.arguments) { row in
                    guard let kind = SearchSuggestion.Kind(rawValue: row.string(1)) else {
                        throw KeyCatError(.internalError, "unknown search_words kind «\(row.string(1))» in the database")
                    }
                    return SearchSuggestion(text: row.string(0), kind: kind, listings: row.int(2))
                }
            }
        }
    }
}
