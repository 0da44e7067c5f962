import Foundation

/// Where search keeps what is not a listing: the operators' synonyms, and the index's upkeep.
/// Implementation: `SQLSearchRepository` (SQLite and Postgres alike).
public protocol SearchRepository: Sendable {
    /// Every synonym pair, each once (`word` before `synonym` in code-point order).
    func synonyms() async throws(KeyCatError) -> [SynonymPair]
    /// Stores a pair both ways with its audit entry; false when it was there already.
    func addSynonym(_ pair: SynonymPair, at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Bool
    /// Removes a pair both ways with its audit entry; false when there was none.
    func removeSynonym(_ pair: SynonymPair, audit: AuditEntry) async throws(KeyCatError) -> Bool
    /// The plan a query runs with the store's synonyms and vocabulary.
    func plan(for query: SearchQuery) async throws(KeyCatError) -> SearchPlan
    /// The standing sales of these listings, as ranking counts them (none for a listing absent).
    func sales(of ids: [ProductID]) async throws(KeyCatError) -> [ProductID: StandingSales]
    /// Indexes every live listing again, a batch per transaction; returns how many.
    func reindex(progress: @Sendable (Int) -> Void) async throws(KeyCatError) -> Int
    /// Where the index and the catalog disagree, as sentences.
    func problems() async throws(KeyCatError) -> [String]
    /// The listings that `filter` (its text, tag, seller and hot-swap filters) finds among at
    /// most `limit` candidates, as ``FacetTally`` describes; the faceted filters are left to
    /// ``ProductFacets``.
    func facetTally(for filter: ProductFilter, limit: Int) async throws(KeyCatError) -> FacetTally
    /// The vocabulary entries of live listings completing `query`, unranked: at most
    /// ``SuggestionQuery/candidateLimit`` per key it completes on, nearest in spelling first.
    func completions(of query: SuggestionQuery) async throws(KeyCatError) -> [SearchSuggestion]
}

/// Two words an operator declared the same for search (키크론 ↔ Keychron), kept normalised.
public struct SynonymPair: Sendable, Hashable, Codable {
    public let word: String
    public let synonym: String

    /// The longest word of a pair, in characters.
    public static let maximumLength = 30

    /// The most synonyms one word has: each is a term every search of the word seeks, a Latin
    /// one spelt out into up to 64 words, so an unbounded list could make one word's search
    /// bind more values than a statement takes. A pair beyond it is `limit_reached` (409).
    public static let maximumPerWord = 20

    /// - Throws: `validation` on `word` or `synonym` when one is not a single searchable word
    ///   of 1–30 characters, or both are the same word.
    public init(_ word: String, _ synonym: String) throws(KeyCatError) {
        let first = try Self.validated(word, field: "word")
        let second = try Self.validated(synonym, field: "synonym")
        guard first != second else { throw .validation("synonym", "a word is not its own synonym") }
        (self.word, self.synonym) = first < second ? (first, second) : (second, first)
    }

    private static func validated(_ raw: String, field: String) throws(KeyCatError) -> String {
        let query = try SearchQuery(raw, field: field)
        guard query.text.count <= maximumLength else {
            throw .validation(field, "\(field) must be at most \(maximumLength) characters")
        }
        guard query.words.count == 1, query.words[0].script != .jamo else {
            throw .validation(field, "\(field) must be one word of letters or digits")
        }
        return query.words[0].text
    }
}

/// Why one listing ranks where it does for a query (`keycat-admin search explain`).
public struct SearchExplanation: Sendable, Hashable {
    public var product: Product
    /// Each group of the plan, as the terms it asked for and the score this listing got.
    public var groups: [(terms: String, score: Int)]
    /// The whole words it has, with their weights.
    public var bonuses: [(term: String, weight: Int)]
    /// Whether its title holds the query without spaces.
    public var phraseMatched: Bool
    public var textScore: Int
    /// Its standing sales; the ranking counts ``StandingSales/rankedUnits(at:)`` of them.
    public var sales: StandingSales
    public var key: Int64

    /// The units sold the ranking counts at the listing's price.
    public var rankedUnits: Int { sales.rankedUnits(at: product.pricing.salePrice) }

    public static func == (a: Self, b: Self) -> Bool { a.product == b.product && a.key == b.key && a.textScore == b.textScore }
    public func hash(into hasher: inout Hasher) { hasher.combine(product.id); hasher.combine(key) }
}
