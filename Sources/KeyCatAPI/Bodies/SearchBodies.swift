import Foundation
import KeyCat

/// The JSON of `GET /products/facets`: for each facet, every value with its count (zero
/// included, in a fixed order), the listings matching every filter, and whether the counts
/// are of the first `cap` listings examined only (docs/search.md "Facets").
public struct FacetsBody: Encodable, Sendable, Hashable {
    /// One value of a facet, as its filter parameter takes it, and how many listings have it.
    public struct Count: Encodable, Sendable, Hashable {
        public var value: String
        public var count: Int
    }

    /// One price band: its name (`50000-99999`, `300000-`), the `min_price`/`max_price` that
    /// filter by it (`max_price` absent for the top band), and how many listings are in it.
    public struct PriceCount: Encodable, Sendable, Hashable {
        public var value: String
        public var minPrice: Int64
        public var maxPrice: Int64?
        public var count: Int

        enum CodingKeys: String, CodingKey {
            case value, minPrice = "min_price", maxPrice = "max_price", count
        }
    }

    public var category: [Count]
    public var kind: [Count]
    public var switchType: [Count]
    public var layout: [Count]
    public var connection: [Count]
    public var price: [PriceCount]
    public var total: Int
    public var approximate: Bool
    public var cap: Int

    enum CodingKeys: String, CodingKey {
        case category, kind, switchType = "switch_type", layout, connection, price, total, approximate, cap
    }

    public init(_ facets: ProductFacets) {
        func counts<Value: RawRepresentable>(_ list: [ProductFacets.Count<Value>]) -> [Count] where Value.RawValue == String {
            list.map { Count(value: $0.value.rawValue, count: $0.count) }
        }
        category = counts(facets.categories)
        kind = counts(facets.kinds)
        switchType = counts(facets.switchTypes)
        layout = counts(facets.layouts)
        connection = counts(facets.connections)
        price = facets.priceBands.map {
            PriceCount(value: $0.value.name, minPrice: $0.value.minimum.won, maxPrice: $0.value.maximum?.won, count: $0.count)
        }
        total = facets.total
        approximate = facets.isApproximate
        cap = ProductFacets.candidateLimit
    }
}

/// The JSON of `GET /products/suggestions`: `{"items": [{"text": …, "kind": "word"|"tag"|"title"}]}`,
/// best first.
public struct SuggestionsBody: Encodable, Sendable, Hashable {
    public struct Item: Encodable, Sendable, Hashable {
        public var text: String
        public var kind: String
    }

    public var items: [Item]

    public init(_ suggestions: [SearchSuggestion]) {
        items = suggestions.map { Item(text: $0.text, kind: $0.kind.rawValue) }
    }
}
