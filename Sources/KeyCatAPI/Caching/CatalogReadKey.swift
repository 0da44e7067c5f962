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

    /// About how many bytes the key holds in memory: its inline size, and a cursor's text (the
    /// one part of it that is not of a fixed size).
    var byteCount: Int {
        switch self {
        case .product: MemoryLayout<Self>.stride
        case let .page(request):
            MemoryLayout<Self>.stride + (request.cursor?.utf8.count ?? 0) + (request.filter.text?.text.utf8.count ?? 0) * 2
                + (request.filter.tag?.utf8.count ?? 0)
        }
    }
}
