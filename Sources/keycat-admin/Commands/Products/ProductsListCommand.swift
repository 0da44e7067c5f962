import KeyCat

/// `keycat-admin products list [filters] [--sort S] [--limit N] [--cursor C]` (the filters of
/// ``ProductFilterOptions``).
struct ProductsListCommand: AdminCommand {
    /// The `--sort` words, as architecture §8 spells them.
    enum SortOption: String, CaseIterable {
        case newest, rating, popular
        case priceAscending = "price-asc"
        case priceDescending = "price-desc"

        var sort: ProductSort {
            switch self {
            case .newest: .newest
            case .rating: .rating
            case .popular: .popular
            case .priceAscending: .priceAscending
            case .priceDescending: .priceDescending
            }
        }
    }

    static let configuration = CommandConfiguration(
        name: "list", abstract: "List listings, one page at a time.",
        options: ProductFilterOptions.options + [
            OptionSpec(name: "sort", valueName: "S", help: "newest (default), price-asc, price-desc (by selling price, the delivery fee not counted), rating or popular."),
        ] + PagingOptions.options,
        flags: ProductFilterOptions.flags)

    let filter: ProductFilterOptions
    let sort: ProductSort
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        filter = try ProductFilterOptions(parsing: arguments)
        sort = (try arguments.choice("sort", as: SortOption.self) ?? .newest).sort
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let request = ProductListRequest(filter: try filter.filter(), sort: sort, limit: limit, cursor: cursor)
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.catalog.list(request)
        let now = context.now(keycat)
        context.emitPage(page, headers: ProductPresenter.headers,
                         row: { ProductPresenter.row($0, now: now) }, json: { ProductPresenter.json($0, now: now) })
    }
}
