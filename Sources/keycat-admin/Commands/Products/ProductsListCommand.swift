import KeyCat

/// `keycat-admin products list [filters] [--sort S] [--limit N] [--cursor C]`.
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
        options: [
            OptionSpec(name: "category", valueName: "C", help: "keyboard, keycap, switch or accessory."),
            OptionSpec(name: "kind", valueName: "K", help: "commercial, secondhand or group_buy."),
            OptionSpec(name: "seller", valueName: "ID", help: "Only this seller's listings."),
            OptionSpec(name: "min-price", valueName: "N", help: "Lowest selling price, in won (the delivery fee not counted)."),
            OptionSpec(name: "max-price", valueName: "N", help: "Highest selling price, in won (the delivery fee not counted)."),
            OptionSpec(name: "switch", valueName: "S", help: "linear, tactile or clicky."),
            OptionSpec(name: "layout", valueName: "L", help: "full_size, tkl, 75_percent, 65_percent, 60_percent or other."),
            OptionSpec(name: "connection", valueName: "C", help: "wired, wireless, bluetooth or multi."),
            OptionSpec(name: "sort", valueName: "S", help: "newest (default), price-asc, price-desc (by selling price, the delivery fee not counted), rating or popular."),
        ] + PagingOptions.options,
        flags: [FlagSpec(name: "hot-swap", help: "Only hot-swap PCBs.")])

    let request: ProductListRequest

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var filter = ProductFilter()
        filter.category = try arguments.choice("category", as: ProductCategory.self)
        filter.kind = try arguments.choice("kind", as: ProductKind.self)
        filter.sellerID = try arguments.int64("seller").map(UserID.init)
        filter.minimumPrice = try arguments.int64("min-price").map { Money(won: $0) }
        filter.maximumPrice = try arguments.int64("max-price").map { Money(won: $0) }
        filter.switchType = try arguments.choice("switch", as: KeyboardSpec.SwitchType.self)
        filter.layout = try arguments.choice("layout", as: KeyboardSpec.Layout.self)
        filter.connection = try arguments.choice("connection", as: KeyboardSpec.Connection.self)
        filter.hotSwap = arguments.flag("hot-swap") ? true : nil
        let sort = try arguments.choice("sort", as: SortOption.self) ?? .newest
        let (limit, cursor) = try PagingOptions.parse(arguments)
        request = ProductListRequest(filter: filter, sort: sort.sort, limit: limit, cursor: cursor)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.catalog.list(request)
        let now = context.now(keycat)
        context.emitPage(page, headers: ProductPresenter.headers,
                         row: { ProductPresenter.row($0, now: now) }, json: { ProductPresenter.json($0, now: now) })
    }
}
