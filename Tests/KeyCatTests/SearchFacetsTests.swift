import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Facet counts (docs/search.md "Facets"), on both stores: they follow the query and every
/// filter but their own, count the filtered catalog without a query, and say when the limit
/// of listings examined cut them short.
@Suite("Search facets")
struct SearchFacetsTests {
    /// The catalog the expectations are written against.
    static let listings: [(label: String, title: String, category: ProductCategory, kind: ProductKind, price: Int64,
                           tags: [String], spec: KeyboardSpec)] = [
        ("linear", "Hanul A75 기계식 키보드 리니어", .keyboard, .commercial, 49_000, ["갈축"],
         KeyboardSpec(connection: .wired, pcb: .hotSwap, switchType: .linear, layout: .seventyFivePercent)),
        ("tactile", "Hanul B87 기계식 키보드 택타일", .keyboard, .commercial, 89_000, [],
         KeyboardSpec(connection: .bluetooth, pcb: .soldered, switchType: .tactile, layout: .tenkeyless)),
        ("capacitive", "무접점 키보드 C104", .keyboard, .secondhand, 150_000, [],
         KeyboardSpec(input: .capacitive, connection: .wired, layout: .fullSize)),
        ("keycaps", "키보드 키캡 세트 PBT", .keycap, .commercial, 30_000, [], KeyboardSpec(keycapProfile: .cherry)),
        ("custom", "커스텀 키보드 E65 그룹구매", .keyboard, .groupBuy, 350_000, ["갈축"],
         KeyboardSpec(connection: .multi, pcb: .hotSwap, switchType: .linear, layout: .sixtyFivePercent)),
        ("switches", "리니어 스위치 70개", .switch, .commercial, 5_000, [], KeyboardSpec(switchType: .linear)),
    ]

    /// A facet's counts by value name, zero counts left out.
    static func nonZero<Value: RawRepresentable>(_ counts: [ProductFacets.Count<Value>]) -> [String: Int] where Value.RawValue == String {
        Dictionary(uniqueKeysWithValues: counts.filter { $0.count > 0 }.map { ($0.value.rawValue, $0.count) })
    }

    static func bands(_ facets: ProductFacets) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: facets.priceBands.filter { $0.count > 0 }.map { ($0.value.name, $0.count) })
    }

    @Test("a query's facets count what it finds, each value listed, zero counts included", arguments: TestStore.allCases)
    func query(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await Self.stock(shop)
            let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("키보드")))
            #expect(facets.total == 5 && !facets.isApproximate)
            #expect(facets.categories.map(\.value) == ProductCategory.allCases)
            #expect(facets.priceBands.map(\.value) == PriceBand.all)
            #expect(Self.nonZero(facets.categories) == ["keyboard": 4, "keycap": 1])
            #expect(Self.nonZero(facets.kinds) == ["commercial": 3, "secondhand": 1, "group_buy": 1])
            #expect(Self.nonZero(facets.switchTypes) == ["linear": 2, "tactile": 1])
            #expect(Self.nonZero(facets.layouts) == ["75_percent": 1, "tkl": 1, "full_size": 1, "65_percent": 1])
            #expect(Self.nonZero(facets.connections) == ["wired": 2, "bluetooth": 1, "multi": 1])
            #expect(Self.bands(facets) == ["0-49999": 2, "50000-99999": 1, "100000-199999": 1, "300000-": 1])
        }
    }

    @Test("a facet's own filter does not narrow its own counts; every other filter does", arguments: TestStore.allCases)
    func ownFilter(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await Self.stock(shop)
            let keyboards = try await shop.keycat.search.facets(filter: ProductFilter(category: .keyboard, text: try SearchQuery("키보드")))
            #expect(keyboards.total == 4)
            #expect(Self.nonZero(keyboards.categories) == ["keyboard": 4, "keycap": 1], "every category, as without the filter")
            #expect(Self.nonZero(keyboards.kinds) == ["commercial": 2, "secondhand": 1, "group_buy": 1], "keyboards only")

            let linear = try await shop.keycat.search.facets(filter: ProductFilter(
                category: .keyboard, switchType: .linear, text: try SearchQuery("키보드")))
            #expect(linear.total == 2)
            #expect(Self.nonZero(linear.categories) == ["keyboard": 2], "linear listings of every category")
            #expect(Self.nonZero(linear.switchTypes) == ["linear": 2, "tactile": 1], "keyboards of every switch type")
            #expect(Self.nonZero(linear.layouts) == ["75_percent": 1, "65_percent": 1])

            let midPriced = try await shop.keycat.search.facets(filter: ProductFilter(
                minimumPrice: Money(won: 50_000), maximumPrice: Money(won: 200_000), text: try SearchQuery("키보드")))
            #expect(midPriced.total == 2)
            #expect(Self.bands(midPriced) == ["0-49999": 2, "50000-99999": 1, "100000-199999": 1, "300000-": 1], "every band")
            #expect(Self.nonZero(midPriced.categories) == ["keyboard": 2])
        }
    }

    @Test("without a query the filtered catalog is counted; tag, seller and hot-swap narrow every facet", arguments: TestStore.allCases)
    func catalog(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let labels = try await Self.stock(shop)
            let all = try await shop.keycat.search.facets(filter: ProductFilter())
            #expect(all.total == 6 && !all.isApproximate)
            #expect(Self.nonZero(all.categories) == ["keyboard": 4, "keycap": 1, "switch": 1])

            let switches = try await shop.keycat.search.facets(filter: ProductFilter(category: .switch))
            #expect(switches.total == 1)
            #expect(Self.nonZero(switches.categories) == ["keyboard": 4, "keycap": 1, "switch": 1])
            #expect(Self.nonZero(switches.kinds) == ["commercial": 1])

            let tagged = try await shop.keycat.search.facets(filter: ProductFilter(tag: "갈축"))
            #expect(tagged.total == 2 && Self.nonZero(tagged.kinds) == ["commercial": 1, "group_buy": 1])
            let hotSwap = try await shop.keycat.search.facets(filter: ProductFilter(hotSwap: true, text: try SearchQuery("키보드")))
            #expect(hotSwap.total == 2 && Self.nonZero(hotSwap.layouts) == ["75_percent": 1, "65_percent": 1])

            // Another seller's listing, counted under its seller only.
            let other = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("Hanul 키보드 단독") { $0.category = .accessory }, for: other.userID, by: other)
            let theirs = try await shop.keycat.search.facets(filter: ProductFilter(sellerID: other.userID))
            #expect(theirs.total == 1 && Self.nonZero(theirs.categories) == ["accessory": 1])
            let theirsByText = try await shop.keycat.search.facets(filter: ProductFilter(sellerID: other.userID, text: try SearchQuery("hanul")))
            #expect(theirsByText.total == 1)

            // A deleted listing is counted nowhere.
            let linear = try #require(labels.first { $0.value == "linear" }?.key)
            try await shop.keycat.catalog.delete(linear, by: shop.operatorConsole)
            let after = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("키보드")))
            #expect(after.total == 5 && Self.nonZero(after.categories) == ["keyboard": 3, "keycap": 1, "accessory": 1])
            #expect(Self.bands(after)["0-49999"] == 1)
        }
    }

    @Test("a query that finds nothing counts nothing; a bad bound is refused", arguments: TestStore.allCases)
    func nothing(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await Self.stock(shop)
            for query in ["없는말", "ㅋㅋㅋㅋ", "hanul 없는말"] {
                let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery(query)))
                #expect(facets.total == 0 && facets.categories.allSatisfy { $0.count == 0 } && !facets.isApproximate, "\(query)")
            }
            await expectError(.validation, field: "min_price") {
                try await shop.keycat.search.facets(filter: ProductFilter(minimumPrice: Money(won: 10), maximumPrice: Money(won: 5)))
            }
        }
    }

    @Test("a listing found by several terms of one group is counted once", arguments: TestStore.allCases)
    func countedOnce(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await Self.stock(shop)
            // tkl (a prefix) and 텐키리스's bigrams: the tactile board has both, in its spec.
            try await shop.keycat.search.addSynonym("tkl", "텐키리스", by: shop.operatorConsole)
            let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("tkl")))
            #expect(facets.total == 1 && Self.nonZero(facets.layouts) == ["tkl": 1])
            // A Latin prefix matching two terms of one listing: the first board is hanul and hotswap.
            let prefix = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("h")))
            #expect(prefix.total == 3 && Self.nonZero(prefix.layouts) == ["75_percent": 1, "tkl": 1, "65_percent": 1])
        }
    }

    @Test("the limit of listings examined: reached, the tally says so and counts no more than it", arguments: TestStore.allCases)
    func limit(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await Self.stock(shop)
            let query = ProductFilter(text: try SearchQuery("키보드"))
            let exact = try await Self.tally(shop, query, limit: 5)
            #expect(!exact.isCapped && exact.counts.values.reduce(0, +) == 5)
            let cut = try await Self.tally(shop, query, limit: 4)
            #expect(cut.isCapped && cut.counts.values.reduce(0, +) == 4)
            let facets = ProductFacets(tally: cut, filter: query)
            #expect(facets.isApproximate && facets.total == 4)

            let catalog = try await Self.tally(shop, ProductFilter(), limit: 6)
            #expect(!catalog.isCapped && catalog.counts.values.reduce(0, +) == 6)
            let newest = try await Self.tally(shop, ProductFilter(), limit: 2)
            #expect(newest.isCapped)
            // The newest listings: the last two listed.
            #expect(Set(newest.counts.keys.map(\.category)) == [.keyboard, .switch])
            // A query narrower than the limit is exact whatever the catalog's size.
            let narrow = try await Self.tally(shop, ProductFilter(text: try SearchQuery("무접점")), limit: 2)
            #expect(!narrow.isCapped && narrow.counts.values.reduce(0, +) == 1)
        }
    }

    @Test("a query of more than two words examines fewer listings, twice the limit over its words, so its look-ups stay bounded",
          arguments: TestStore.allCases)
    func manyWordsExamineFewer(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            for number in 1...6 {
                _ = try await shop.keycat.catalog.create(TestShop.draft("알파 베타 감마 델타 \(number)"), for: seller.userID, by: seller)
            }
            let two = try await Self.tally(shop, ProductFilter(text: try SearchQuery("알파 베타")), limit: 6)
            #expect(!two.isCapped && two.counts.values.reduce(0, +) == 6)
            // Three words: 2 × 6 / 3 = 4 listings examined, and the count says it was cut.
            let three = try await Self.tally(shop, ProductFilter(text: try SearchQuery("알파 베타 감마")), limit: 6)
            #expect(three.isCapped && three.counts.values.reduce(0, +) == 4)
            let four = try await Self.tally(shop, ProductFilter(text: try SearchQuery("알파 베타 감마 델타")), limit: 6)
            #expect(four.isCapped && four.counts.values.reduce(0, +) == 3)
        }
    }

    /// The store's tally with `limit` (the service always uses ``ProductFacets/candidateLimit``).
    static func tally(_ shop: TestShop, _ filter: ProductFilter, limit: Int) async throws -> FacetTally {
        try await tally(shop.keycat.store.database, filter, limit: limit)
    }

    private static func tally(_ database: some SQLDatabase, _ filter: ProductFilter, limit: Int) async throws -> FacetTally {
        try await SQLSearchRepository(database: database).facetTally(for: filter, limit: limit)
    }

    /// Lists the catalog, in order; returns each listing's label by id.
    static func stock(_ shop: TestShop) async throws -> [ProductID: String] {
        let seller = try await shop.user(.seller)
        var labels: [ProductID: String] = [:]
        for listing in listings {
            let product = try await shop.keycat.catalog.create(TestShop.draft(listing.title, price: listing.price) { draft in
                draft.content = "좋은 제품입니다."
                draft.category = listing.category
                draft.kind = listing.kind
                draft.tags = listing.tags
                draft.spec = listing.spec
            }, for: seller.userID, by: seller)
            labels[product.id] = listing.label
        }
        return labels
    }
}
