import KeyCatDomain

/// Search over the listings in memory.
extension InMemoryProductRepository {
    /// The reference search: every listing analysed afresh and scored by the plan in Swift
    /// (without synonyms or typos, which live in a store's tables; units sold count 0).
    package func search(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> SearchPage {
        SearchPage(hits: try hits(filter, sort: sort, after: position, limit: limit))
    }

    func hits(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [SearchHit] {
        guard let text = filter.text else {
            return try list(filter, sort: sort, after: position, limit: limit).map { SearchHit(product: $0, key: sort.key(of: $0)) }
        }
        var plan = SearchPlan(text)
        let ascending = sort == .priceAscending
        func precedes(_ left: (Int64, Int64), _ right: (Int64, Int64)) -> Bool {
            ascending ? left < right : left > right
        }
        let start = position.map { ($0.sortKey, $0.id) }
        // Each live listing analysed once: its terms make the index's words (a prefix under which
        // there are more than 64 is narrowed to the commonest title words, as the stores' planner
        // does) and its score.
        let analysed = liveProducts().map { product in
            (product, SearchAnalyzer.terms(title: product.title, content: product.content, tags: product.tags, spec: product.spec))
        }
        plan.narrowBroadPrefixes(terms: Set(analysed.flatMap(\.1.keys)), titleWords: SearchPlan.titleWords(of: analysed.map(\.0)))
        var unfiltered = filter
        unfiltered.text = nil
        return analysed
            .filter { product, _ in product.isListed && Self.matches(product, unfiltered) }
            .compactMap { product, terms -> SearchHit? in
                if let tag = filter.tag, terms["#" + tag] == nil { return nil }
                guard let score = plan.textScore(terms: terms, title: product.title) else { return nil }
                let key = sort == .relevance ? SearchPlan.relevanceKey(textScore: score, product: product, sales: .none) : sort.key(of: product)
                return SearchHit(product: product, key: key)
            }
            .filter { hit in start.map { precedes($0, (hit.key, hit.product.id.rawValue)) } ?? true }
            .sorted { precedes(($0.key, $0.product.id.rawValue), ($1.key, $1.product.id.rawValue)) }
            .prefix(max(limit, 0))
            .map { $0 }
    }
}
