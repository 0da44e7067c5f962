import KeyCat

/// `keycat-admin search "…" [filters] [--sort S] [--limit N] [--cursor C]`: the catalog list with
/// a search text, as `GET /products?q=…` answers it (docs/search.md); and, as subcommands, why
/// results rank where they do, the synonyms, and the index's upkeep.
///
/// The text is checked as the library checks `q` (1–100 characters, at most 10 words) before the
/// database is opened: a bad one is a validation error (exit 1), as the API's 400 is.
struct SearchCommand: AdminCommand {
    /// The `--sort` words: relevance (the default with a text) and every sort of `products list`.
    enum SortOption: String, CaseIterable {
        case relevance, newest, rating, popular
        case priceAscending = "price-asc"
        case priceDescending = "price-desc"

        var sort: ProductSort {
            switch self {
            case .relevance: .relevance
            case .newest: .newest
            case .rating: .rating
            case .popular: .popular
            case .priceAscending: .priceAscending
            case .priceDescending: .priceDescending
            }
        }
    }

    static let configuration = CommandConfiguration(
        name: "search", abstract: "Search listings by text, explain the ranking, edit synonyms, rebuild the index.",
        discussion: """
            Korean first: 갈축 and 기계식키보드 (with or without the space) match, Latin words by prefix
            (hanu finds Hanul), model codes (H61), initials (ㄱㅊ), and the operators' synonyms.
            The filters narrow the results as in 'products list'. To search for a word that names
            a command (explain, synonyms, reindex), put -- before it: search -- reindex.
            """,
        arguments: [ArgumentSpec(name: "QUERY", help: "The search text, 1–100 characters and at most 10 words (quote several words).")],
        options: ProductFilterOptions.options + [
            OptionSpec(name: "sort", valueName: "S", help: "relevance (default), newest, price-asc, price-desc, rating or popular."),
        ] + PagingOptions.options,
        flags: ProductFilterOptions.flags,
        subcommands: [SearchExplainCommand.self, SearchSynonymsCommand.self, SearchReindexCommand.self])

    let text: String
    let filter: ProductFilterOptions
    let sort: ProductSort
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        text = arguments.positionals[0]
        filter = try ProductFilterOptions(parsing: arguments)
        sort = (try arguments.choice("sort", as: SortOption.self) ?? .relevance).sort
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let request = ProductListRequest(
            filter: try filter.filter(text: try SearchQuery(text)), sort: sort, limit: limit, cursor: cursor)
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.catalog.list(request)
        if !context.json, page.items.isEmpty, cursor == nil {
            context.console.print("No listing matches «\(text)»\(request.filter == ProductFilter(text: request.filter.text) ? "" : " with these filters").")
            return
        }
        let now = context.now(keycat)
        context.emitPage(page, headers: SearchPresenter.headers,
                         row: { SearchPresenter.row($0, now: now) }, json: { ProductPresenter.json($0, now: now) })
    }
}
