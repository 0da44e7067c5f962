import KeyCat

/// Product pages at several depths for every sort, and product detail.
struct CatalogScenarios<Raw: RawCatalogReads> {
    let keycat: KeyCat
    let raw: Raw
    let productCount: Int
    let operations: Int

    static var pageSize: Int { 20 }
    static var depths: [Int] { [1, 1_000, 40_000] }

    func run() async throws -> [Comparison] {
        var rows: [Comparison] = []
        for sort in ProductSort.browsing {
            let (column, ascending) = Self.column(sort)
            let sql = raw.pageSQL(column: column, ascending: ascending)
            for depth in Self.depths {
                let offset = (depth - 1) * Self.pageSize
                guard offset + Self.pageSize <= productCount else { continue }
                var request = ProductListRequest(sort: sort, limit: try PageLimit(Self.pageSize))
                var position: (Int64, Int64)?
                if offset > 0 {
                    position = try raw.position(column: column, ascending: ascending, offset: offset - 1)
                    let last = try await keycat.catalog.product(ProductID(position!.1))
                    request.cursor = try keycat.catalog.cursor(resumingAfter: last, in: request)
                }
                // Both sides must return the same page, or the comparison means nothing.
                let libraryIDs = try await keycat.catalog.list(request).items.map(\.id.rawValue)
                let rawIDs = try raw.page(sql, after: position, limit: Self.pageSize + 1)
                    .prefix(Self.pageSize).map(\.id)
                guard libraryIDs == Array(rawIDs) else {
                    throw RawDatabase.Failure(description: "\(sort) page \(depth): library and baseline disagree")
                }
                rows.append(try await compare("page \(sort.rawValue) @\(depth)", operations: operations,
                    library: { _ in _ = try await keycat.catalog.list(request) },
                    baseline: { _ in _ = try raw.page(sql, after: position, limit: Self.pageSize + 1) }))
            }
        }
        let ids = (0..<operations).map { Int64(($0 &* 7_919) % productCount + 1) }
        rows.append(try await compare("product detail", operations: operations,
            library: { _ = try await keycat.catalog.product(ProductID(ids[$0])) },
            baseline: { _ = try raw.product(ids[$0]) }))
        return rows
    }

    static func column(_ sort: ProductSort) -> (String, Bool) {
        switch sort {
        case .newest: ("created_at", false)
        case .priceAscending: ("price", true)
        case .priceDescending: ("price", false)
        case .rating: ("rating_score", false)
        case .popular: ("bookmark_count", false)
        case .relevance: ("created_at", false)  // not among the browsing sorts benchmarked here
        }
    }
}
