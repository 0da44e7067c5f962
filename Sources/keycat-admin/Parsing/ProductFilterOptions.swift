import KeyCat

/// The listing filters `products list`, `search` and `search explain` share, defined once:
/// `--category`, `--kind`, `--seller`, `--min-price`, `--max-price`, `--switch`, `--layout`,
/// `--connection`, `--tag` and `--hot-swap`.
struct ProductFilterOptions {
    static let options = [
        OptionSpec(name: "category", valueName: "C", help: "keyboard, keycap, switch or accessory."),
        OptionSpec(name: "kind", valueName: "K", help: "commercial, secondhand or group_buy."),
        OptionSpec(name: "seller", valueName: "ID", help: "Only this seller's listings."),
        OptionSpec(name: "min-price", valueName: "N", help: "Lowest selling price, in won (the delivery fee not counted)."),
        OptionSpec(name: "max-price", valueName: "N", help: "Highest selling price, in won (the delivery fee not counted)."),
        OptionSpec(name: "switch", valueName: "S", help: "linear, tactile or clicky."),
        OptionSpec(name: "layout", valueName: "L", help: "full_size, tkl, 75_percent, 65_percent, 60_percent or other."),
        OptionSpec(name: "connection", valueName: "C", help: "wired, wireless, bluetooth or multi."),
        OptionSpec(name: "tag", valueName: "T", help: "Only listings with this tag (갈축 or #갈축; case and width do not matter)."),
    ]
    static let flags = [FlagSpec(name: "hot-swap", help: "Only hot-swap PCBs.")]

    /// The filters from the line, without a text or a tag.
    private let filter: ProductFilter
    /// `--tag` as given: checked and normalised by ``filter(text:)``, as the library does it.
    private let tag: String?

    /// Reads the filter options; a value that is not one of the choices or not a number is a
    /// usage error naming the option.
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
        self.filter = filter
        tag = arguments.string("tag")
    }

    /// The filter with `text` and the tag in the index's form.
    ///
    /// - Throws: `validation` on `tag` for a tag no listing could carry (``ProductTags``): a
    ///   domain error, as the HTTP API answers it, not a usage error.
    func filter(text: SearchQuery? = nil) throws(KeyCatError) -> ProductFilter {
        var filter = filter
        filter.text = text
        filter.tag = try tag.map { raw throws(KeyCatError) in try ProductTags.filterValue(raw) }
        return filter
    }
}
