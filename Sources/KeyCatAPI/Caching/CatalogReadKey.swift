import KeyCat

/// What a catalog read's answer depends on, as its route parsed the request: the same answer
/// has one key however the request spelled it. `?sort=newest&limit=20`, `?limit=20&sort=newest`,
/// `?limit=020` and no query at all are one ``ProductListRequest`` and so one entry; what the
/// route does not read cannot be in the key, and a parameter the route does not declare never
/// reaches it (``KeyCatAPI/admit(_:)`` answers 400). Equality is the typed request's own, so a
/// filter added to ``ProductListRequest`` is part of the key without a line here.
enum CatalogReadKey: Hashable, Sendable {
    /// `GET /products/{id}`.
    case product(ProductID)
    /// `GET /products` with its filters, sort, limit and cursor.
    case page(ProductListRequest)
    /// `GET /products/facets` with its text and filters.
    case facets(ProductFilter)
    /// `GET /products/suggestions` with its text and limit.
    case suggestions(SuggestionQuery)

    /// About how many bytes the key holds in memory: its inline size, and the texts that are
    /// not of a fixed size (a cursor, a search text, a tag).
    var byteCount: Int {
        switch self {
        case .product: MemoryLayout<Self>.stride
        case let .page(request): MemoryLayout<Self>.stride + (request.cursor?.utf8.count ?? 0) + Self.textBytes(of: request.filter)
        case let .facets(filter): MemoryLayout<Self>.stride + Self.textBytes(of: filter)
        case let .suggestions(query): MemoryLayout<Self>.stride + query.text.utf8.count + query.spellings.reduce(0) { $0 + $1.utf8.count }
        }
    }

    /// The bytes of a filter's texts, which are not of a fixed size: the search text (kept with
    /// its words) and the tag.
    private static func textBytes(of filter: ProductFilter) -> Int {
        (filter.text.map { $0.text.utf8.count * 3 } ?? 0) + (filter.tag?.utf8.count ?? 0)
    }
}
