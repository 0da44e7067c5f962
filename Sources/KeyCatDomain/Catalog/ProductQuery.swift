/// The order of a product list. Every sort breaks ties by id, so the order is total and a
/// cursor names one exact place in it.
///
/// The price sorts (and ``ProductFilter``'s price bounds) compare the item's selling price,
/// delivery fee excluded: the stored `price` column their indexes cover. A listing cannot sort
/// cheap by moving its price into the fee further than the fee bound allows
/// (``CatalogService/maximumDeliveryFee``, ₩50,000 by default), and the fee pays commission.
public enum ProductSort: String, Sendable, Hashable, CaseIterable, Codable {
    /// Newest first: `createdAt` descending.
    case newest
    /// Cheapest selling price first (the delivery fee not counted).
    case priceAscending = "price_asc"
    /// Dearest selling price first (the delivery fee not counted).
    case priceDescending = "price_desc"
    /// Best average rating first; products without reviews last.
    case rating
    /// Most bookmarked first.
    case popular
    /// Best match for the search text first (docs/search.md "Ranking"): the default, and only
    /// possible, with a text (``ProductFilter/text``).
    case relevance

    /// The sorts of a list without search text: all but ``relevance``.
    public static let browsing: [ProductSort] = allCases.filter { $0 != .relevance }
}

/// Filters for a product list. Every filter is optional; set filters combine with AND.
public struct ProductFilter: Sendable, Hashable {
    public var category: ProductCategory?
    public var kind: ProductKind?
    public var sellerID: UserID?
    /// Selling price bounds, inclusive; the delivery fee is not counted.
    public var minimumPrice: Money?
    public var maximumPrice: Money?
    public var switchType: KeyboardSpec.SwitchType?
    public var layout: KeyboardSpec.Layout?
    public var connection: KeyboardSpec.Connection?
    /// `true` for hot-swap PCBs only, `false` for soldered only.
    public var hotSwap: Bool?
    /// Search text: only listings matching it (docs/search.md).
    public var text: SearchQuery?
    /// One tag, matched exactly, in its normalised form (``ProductTags/filterValue(_:)``).
    public var tag: String?

    public init(
        category: ProductCategory? = nil, kind: ProductKind? = nil, sellerID: UserID? = nil,
        minimumPrice: Money? = nil, maximumPrice: Money? = nil,
        switchType: KeyboardSpec.SwitchType? = nil, layout: KeyboardSpec.Layout? = nil,
        connection: KeyboardSpec.Connection? = nil, hotSwap: Bool? = nil, text: SearchQuery? = nil, tag: String? = nil
    ) {
        self.category = category
        self.kind = kind
        self.sellerID = sellerID
        self.minimumPrice = minimumPrice
        self.maximumPrice = maximumPrice
        self.switchType = switchType
        self.layout = layout
        self.connection = connection
        self.hotSwap = hotSwap
        self.text = text
        self.tag = tag
    }

    /// A canonical text of the filter, which a cursor is bound to: a cursor made under one
    /// filter is refused under another.
    public var fingerprint: String {
        var text = ""
        text.reserveCapacity(48)
        func field(_ name: String, _ value: String?) {
            text += name
            if let value { text += value }
            text += "&"
        }
        field("c=", category?.rawValue)
        field("k=", kind?.rawValue)
        field("s=", sellerID.map { String($0.rawValue) })
        field("min=", minimumPrice.map { String($0.won) })
        field("max=", maximumPrice.map { String($0.won) })
        field("sw=", switchType?.rawValue)
        field("l=", layout?.rawValue)
        field("cn=", connection?.rawValue)
        field("hs=", hotSwap.map { $0 ? "1" : "0" })
        field("q=", self.text?.key)
        field("t=", tag)
        return text
    }

    /// Checks the bounds: prices not negative, minimum not above maximum.
    public func validate() throws(KeyCatError) {
        if let tag { _ = try ProductTags.filterValue(tag) }
        if let minimumPrice, minimumPrice.won < 0 {
            throw .validation("min_price", "min_price cannot be negative")
        }
        if let maximumPrice, maximumPrice.won < 0 {
            throw .validation("max_price", "max_price cannot be negative")
        }
        if let minimumPrice, let maximumPrice, minimumPrice > maximumPrice {
            throw .validation("min_price", "min_price cannot be above max_price")
        }
    }
}

/// One request for a page of products.
public struct ProductListRequest: Sendable, Hashable {
    public var filter: ProductFilter
    public var sort: ProductSort
    public var limit: PageLimit
    /// The `nextCursor` of the previous page, or nil for the first page.
    public var cursor: String?

    /// - Parameter sort: the order; nil for the default, ``ProductSort/relevance`` with a search
    ///   text and ``ProductSort/newest`` without.
    public init(filter: ProductFilter = ProductFilter(), sort: ProductSort? = nil,
                limit: PageLimit = .default, cursor: String? = nil) {
        self.filter = filter
        self.sort = sort ?? (filter.text == nil ? .newest : .relevance)
        self.limit = limit
        self.cursor = cursor
    }
}
