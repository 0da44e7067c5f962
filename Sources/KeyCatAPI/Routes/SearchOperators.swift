import KeyCat

/// The operators' side of search over HTTP, what `keycat-admin search synonyms` and `search
/// explain` do: the synonym table (키크론 ↔ Keychron), and why a query's top results rank where
/// they do. Operators only: an explanation shows units sold, which a listing's page does not.
///
/// Words are Hangul as often as not, so a pair travels in the body (`POST`) or the query
/// (`DELETE`), never as path segments, which the router matches as ASCII names.
enum SearchOperatorRoutes {
    static let routes: [Route] = [
        Route(.get, "/search/synonyms", .admin) { context in
            _ = try context.principal()
            return .json(SynonymsBody(items: try await context.keycat.search.synonyms().map(SynonymBody.init)))
        },
        // `added` is false when the pair was there already: adding twice changes nothing.
        Route(.post, "/search/synonyms", .admin, body: .jsonDefault) { context in
            let body = try context.json(SynonymBody.self)
            let pair = try SynonymPair(body.word, body.synonym)
            let added = try await context.keycat.search.addSynonym(body.word, body.synonym, by: context.principal())
            return .json(SynonymAddedBody(word: pair.word, synonym: pair.synonym, added: added))
        },
        // Either order names the pair; one that is not there is a 404, and nothing changes.
        Route(.delete, "/search/synonyms", .admin, query: ["word", "synonym"], status: 204) { context in
            let word = try context.query("word") ?? ""
            let synonym = try context.query("synonym") ?? ""
            let pair = try SynonymPair(word, synonym)
            guard try await context.keycat.search.removeSynonym(word, synonym, by: context.principal()) else {
                throw KeyCatError(.notFound, "no synonym pair \(pair.word) ↔ \(pair.synonym)",
                                  context: ["word": pair.word, "synonym": pair.synonym])
            }
            return APIResponse(status: 204)
        },
        Route(.get, "/search/explain", .admin, query: ["q", "limit"]) { context in
            _ = try context.principal()
            guard let text = try context.query("q") else { throw KeyCatError.validation("q", "q is required") }
            let query = try SearchQuery(text)
            let request = ProductListRequest(filter: ProductFilter(text: query), sort: .relevance, limit: try context.limit())
            let explanations = try await context.keycat.search.explain(request)
            return .json(ExplanationsBody(query: text, items: explanations.enumerated().map { ExplanationBody($1, rank: $0 + 1) }))
        },
    ]
}

/// `{"word": "키크론", "synonym": "keychron"}`: a pair as search keeps it (normalised, the
/// smaller word first), or as an operator sends it.
struct SynonymBody: Codable, Sendable, JSONClosedObject {
    var word: String
    var synonym: String

    static let members: Set<String> = ["word", "synonym"]

    init(_ pair: SynonymPair) {
        word = pair.word
        synonym = pair.synonym
    }
}

/// A pair as search now keeps it, and whether this request added it.
struct SynonymAddedBody: Encodable, Sendable {
    var word: String
    var synonym: String
    var added: Bool
}

/// Every synonym pair, each once.
struct SynonymsBody: Encodable, Sendable {
    var items: [SynonymBody]
}

/// The first results of a query by relevance, each with what its place is made of.
struct ExplanationsBody: Encodable, Sendable {
    var query: String
    var items: [ExplanationBody]
}

/// One result's place: its text score (each group of the query's terms with the score it
/// earned, the whole words it has, the phrase bonus), then the shop's signals that break ties,
/// and the relevance key they pack into (higher first; ties by id). Terms are as the index keeps
/// them: `=` a whole word, `*` a prefix, `~` a forgiven typo, `|` alternatives.
struct ExplanationBody: Encodable, Sendable {
    struct Group: Encodable, Sendable {
        var terms: String
        var score: Int
    }

    struct Bonus: Encodable, Sendable {
        var term: String
        var weight: Int
    }

    var rank: Int
    var id: Int64
    var title: String
    var textScore: Int
    var groups: [Group]
    var bonuses: [Bonus]
    var phraseMatched: Bool
    var phraseBonus: Int
    var inStock: Bool
    var stock: Int
    var unitsSold: Int
    var valueSold: Int64
    var unitsRanked: Int
    var bookmarkCount: Int
    var ratingAverage: Double?
    var reviewCount: Int
    var key: Int64

    enum CodingKeys: String, CodingKey {
        case rank, id, title, textScore = "text_score", groups, bonuses, phraseMatched = "phrase_matched"
        case phraseBonus = "phrase_bonus", inStock = "in_stock", stock, unitsSold = "units_sold"
        case valueSold = "value_sold", unitsRanked = "units_ranked"
        case bookmarkCount = "bookmark_count", ratingAverage = "rating_average", reviewCount = "review_count", key
    }

    init(_ explanation: SearchExplanation, rank: Int) {
        let product = explanation.product
        self.rank = rank
        id = product.id.rawValue
        title = product.title
        textScore = explanation.textScore
        groups = explanation.groups.map { Group(terms: $0.terms, score: $0.score) }
        bonuses = explanation.bonuses.map { Bonus(term: $0.term, weight: $0.weight) }
        phraseMatched = explanation.phraseMatched
        phraseBonus = explanation.phraseMatched ? SearchPlan.phraseBonus : 0
        inStock = product.stock > 0
        stock = product.stock
        unitsSold = explanation.sales.units
        valueSold = explanation.sales.value.won
        unitsRanked = explanation.rankedUnits
        bookmarkCount = product.bookmarkCount
        ratingAverage = product.averageRating
        reviewCount = product.ratingCount
        key = explanation.key
    }
}
