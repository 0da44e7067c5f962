/// How many listings a search, or the filtered catalog without one, has in each category, kind,
/// switch type, layout, connection and price band (docs/search.md "Facets").
///
/// Counts follow the query and every filter except their own: with `category=keyboard` the
/// category facet still counts each category under the other filters, so a buyer sees what
/// choosing another would give, while every other facet counts keyboards only. Each facet lists
/// every value, in declaration order, zero counts included; a listing without a switch type,
/// layout or connection is counted in no value of that facet.
///
/// Counting stays bounded: at most ``candidateLimit`` listings are examined. When the query
/// and the filters found more, ``isApproximate`` is true and the counts describe the ones
/// examined (see ``FacetTally`` for which).
public struct ProductFacets: Sendable, Hashable {
    /// One value of a facet and how many listings have it.
    public struct Count<Value: Sendable & Hashable>: Sendable, Hashable {
        public var value: Value
        public var count: Int

        public init(value: Value, count: Int) {
            self.value = value
            self.count = count
        }
    }

    public var categories: [Count<ProductCategory>]
    public var kinds: [Count<ProductKind>]
    public var switchTypes: [Count<KeyboardSpec.SwitchType>]
    public var layouts: [Count<KeyboardSpec.Layout>]
    public var connections: [Count<KeyboardSpec.Connection>]
    public var priceBands: [Count<PriceBand>]
    /// The listings matching the query and every filter, among those examined.
    public var total: Int
    /// Whether more listings were candidates than ``candidateLimit``: the counts are then those
    /// of the listings examined, a lower bound of the whole.
    public var isApproximate: Bool

    /// The most listings one facet count examines: about what a search over the
    /// million-listing benchmark catalog examines within its budget (docs/search.md "Facets").
    public static let candidateLimit = 10_000

    /// The facets of the listings in `tally`, as `filter` narrows each one: every filter but a
    /// facet's own applies to its counts.
    public init(tally: FacetTally, filter: ProductFilter) {
        var categories: [ProductCategory: Int] = [:]
        var kinds: [ProductKind: Int] = [:]
        var switchTypes: [KeyboardSpec.SwitchType: Int] = [:]
        var layouts: [KeyboardSpec.Layout: Int] = [:]
        var connections: [KeyboardSpec.Connection: Int] = [:]
        var bands: [PriceBand: Int] = [:]
        var total = 0
        for (cell, count) in tally.counts {
            // Whether the listings of this cell pass each facet's filter, in one order.
            let passes: [Bool] = [
                filter.category == nil || filter.category == cell.category,
                filter.kind == nil || filter.kind == cell.kind,
                filter.switchType == nil || filter.switchType == cell.switchType,
                filter.layout == nil || filter.layout == cell.layout,
                filter.connection == nil || filter.connection == cell.connection,
                cell.withinPriceBounds,
            ]
            let failing = passes.indices.filter { !passes[$0] }
            // A facet counts the cell when no other facet's filter refuses it.
            func counts(_ facet: Int) -> Bool { failing.isEmpty || failing == [facet] }
            if failing.isEmpty { total += count }
            if counts(0) { categories[cell.category, default: 0] += count }
            if counts(1) { kinds[cell.kind, default: 0] += count }
            if counts(2), let value = cell.switchType { switchTypes[value, default: 0] += count }
            if counts(3), let value = cell.layout { layouts[value, default: 0] += count }
            if counts(4), let value = cell.connection { connections[value, default: 0] += count }
            if counts(5) { bands[cell.priceBand, default: 0] += count }
        }
        func list<Value>(_ values: [Value], _ counts: [Value: Int]) -> [Count<Value>] {
            values.map { Count(value: $0, count: counts[$0] ?? 0) }
        }
        self.categories = list(ProductCategory.allCases, categories)
        self.kinds = list(ProductKind.allCases, kinds)
        self.switchTypes = list(KeyboardSpec.SwitchType.allCases, switchTypes)
        self.layouts = list(KeyboardSpec.Layout.allCases, layouts)
        self.connections = list(KeyboardSpec.Connection.allCases, connections)
        self.priceBands = list(PriceBand.all, bands)
        self.total = total
        self.isApproximate = tally.isCapped
    }
}

/// What a store found for a facet count (``SearchRepository/facetTally(for:limit:)``): the
/// listings examined, as how many share each combination of the attributes the facets count.
///
/// The store examines the listings of the narrowest **source** among the query's groups
/// (``SearchPlan/groups``), the `tag` filter and the `seller_id` filter, as a search does; with
/// none of them, the newest listed listings. It examines at most the limit it is given, and
/// checks each against the rest of the query and the filters that no facet counts (seller,
/// tag, hot-swap); the facets' own filters are applied by ``ProductFacets/init(tally:filter:)``.
public struct FacetTally: Sendable, Hashable {
    /// One combination of the faceted attributes.
    public struct Cell: Sendable, Hashable {
        public var category: ProductCategory
        public var kind: ProductKind
        public var switchType: KeyboardSpec.SwitchType?
        public var layout: KeyboardSpec.Layout?
        public var connection: KeyboardSpec.Connection?
        public var priceBand: PriceBand
        /// Whether the selling price is within the filter's `min_price`/`max_price` (inclusive);
        /// true without them.
        public var withinPriceBounds: Bool

        public init(category: ProductCategory, kind: ProductKind, switchType: KeyboardSpec.SwitchType?,
                    layout: KeyboardSpec.Layout?, connection: KeyboardSpec.Connection?, priceBand: PriceBand,
                    withinPriceBounds: Bool) {
            self.category = category
            self.kind = kind
            self.switchType = switchType
            self.layout = layout
            self.connection = connection
            self.priceBand = priceBand
            self.withinPriceBounds = withinPriceBounds
        }
    }

    /// How many examined listings have each combination.
    public var counts: [Cell: Int]
    /// Whether the source had more listings than were examined.
    public var isCapped: Bool

    public init(counts: [Cell: Int] = [:], isCapped: Bool = false) {
        self.counts = counts
        self.isCapped = isCapped
    }
}

extension SearchPlan.Group {
    /// The requirement of a `tag=` filter: the listings indexed with that tag (`#갈축`), as a
    /// group a store can drive from like a word of the query.
    ///
    /// - Parameter tag: the tag in its normalised form (``ProductTags/filterValue(_:)``).
    public static func tag(_ tag: String) -> Self { Self(exact: ["#" + tag]) }
}
