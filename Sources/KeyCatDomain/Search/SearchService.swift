import Foundation

/// Search beyond the product list (which is ``CatalogService/list(_:)`` with a text): the
/// operators' synonyms, why results rank as they do, and the index's upkeep.
public struct SearchService: Sendable {
    let index: any SearchRepository
    let catalog: CatalogService
    let clock: any WallClock

    public init(index: any SearchRepository, catalog: CatalogService, clock: any WallClock) {
        self.index = index
        self.catalog = catalog
        self.clock = clock
    }

    /// Every synonym pair.
    public func synonyms() async throws(KeyCatError) -> [SynonymPair] { try await index.synonyms() }

    /// Declares two words the same for search, both ways; searches use it at once.
    ///
    /// - Throws: `forbidden` unless an admin; `validation` on `word`/`synonym` (``SynonymPair``);
    ///   `limitReached` when either word has ``SynonymPair/maximumPerWord`` synonyms already.
    /// - Returns: false when the pair was there already.
    @discardableResult
    public func addSynonym(_ word: String, _ synonym: String, by principal: Principal) async throws(KeyCatError) -> Bool {
        try requireAdmin(principal)
        let pair = try SynonymPair(word, synonym)
        let now = clock.now()
        return try await index.addSynonym(pair, at: now, audit: AuditEntry(
            actor: principal.auditActor, action: "search.synonym.add", target: "synonym:\(pair.word)", detail: pair.synonym, at: now))
    }

    /// Removes a synonym pair, both ways.
    ///
    /// - Throws: `forbidden` unless an admin; `validation` as for ``addSynonym(_:_:by:)``.
    /// - Returns: false when there was no such pair.
    @discardableResult
    public func removeSynonym(_ word: String, _ synonym: String, by principal: Principal) async throws(KeyCatError) -> Bool {
        try requireAdmin(principal)
        let pair = try SynonymPair(word, synonym)
        let now = clock.now()
        return try await index.removeSynonym(pair, audit: AuditEntry(
            actor: principal.auditActor, action: "search.synonym.remove", target: "synonym:\(pair.word)", detail: pair.synonym, at: now))
    }

    /// The first `limit` results of `request` (whose filter has a text), each with the score of
    /// every group of the query's plan, its whole-word bonuses and the shop's signals: what
    /// `keycat-admin search explain` prints. The scores are recomputed from each listing's text
    /// by ``SearchAnalyzer``, the reference the stores' SQL is tested against.
    public func explain(_ request: ProductListRequest) async throws(KeyCatError) -> [SearchExplanation] {
        guard let text = request.filter.text else { throw .validation("q", "explain needs a search text") }
        let page = try await catalog.list(request)
        let plan = try await index.plan(for: text)
        let sold = try await index.sales(of: page.items.map(\.id))
        return page.items.map { product in
            let terms = SearchAnalyzer.terms(title: product.title, content: product.content, tags: product.tags, spec: product.spec)
            let groups = plan.groups.map { group in
                ((group.exact + group.prefixes.map { $0 + "*" } + group.forgiven.map { "~" + $0 }).joined(separator: "|"),
                 SearchPlan.score(of: group, in: terms, narrowed: plan.narrowedPrefixes) ?? 0)
            }
            let bonuses = plan.bonuses.compactMap { term in terms[term].map { (term, $0) } }
            let textScore = plan.textScore(terms: terms, title: product.title) ?? 0
            let titleKey = SearchAnalyzer.normalize(product.title).filter { !$0.isWhitespace }
            let sales = sold[product.id] ?? .none
            return SearchExplanation(
                product: product, groups: groups, bonuses: bonuses, phraseMatched: titleKey.contains(plan.phrase),
                textScore: textScore, sales: sales,
                key: SearchPlan.relevanceKey(textScore: textScore, product: product, sales: sales))
        }
    }

    /// Indexes every live listing again, online (a batch per transaction).
    ///
    /// - Throws: `forbidden` unless an admin.
    public func reindex(by principal: Principal, progress: @Sendable (Int) -> Void = { _ in }) async throws(KeyCatError) -> Int {
        try requireAdmin(principal)
        return try await index.reindex(progress: progress)
    }

    /// Where the index and the catalog disagree (`db check`); empty when they agree.
    public func problems() async throws(KeyCatError) -> [String] { try await index.problems() }

    private func requireAdmin(_ principal: Principal) throws(KeyCatError) {
        guard principal.role == .admin else { throw KeyCatError(.forbidden, "only an admin may change search") }
    }
}
