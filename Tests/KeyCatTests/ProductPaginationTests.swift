import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCat

@Suite("Keyset pagination of products")
struct ProductPaginationTests {
    /// Lists `count` products with varied prices, categories and switch types, spread in time.
    private func stock(_ shop: TestShop, sellers: [Principal], count: Int) async throws -> [Product] {
        var products: [Product] = []
        for index in 0..<count {
            shop.clock.advance(by: Double(index % 3))  // some share a creation time: ties by id
            let seller = sellers[index % sellers.count]
            let draft = TestShop.draft("상품 \(index)", price: Int64(10_000 + (index * 7_919) % 50 * 1_000)) {
                $0.category = ProductCategory.allCases[index % 4]
                $0.spec.switchType = KeyboardSpec.SwitchType.allCases[index % 3]
            }
            products.append(try await shop.keycat.catalog.create(draft, for: seller.userID, by: seller))
        }
        return products
    }

    private func walk(_ shop: TestShop, _ request: ProductListRequest) async throws -> [Product] {
        var request = request
        var seen: [Product] = []
        repeat {
            let page = try await shop.keycat.catalog.list(request)
            #expect(page.items.count <= request.limit.value)
            seen += page.items
            request.cursor = page.nextCursor
        } while request.cursor != nil
        return seen
    }

    /// Whether `products` are in `sort` order, ties broken by id.
    private func isOrdered(_ products: [Product], by sort: ProductSort) -> Bool {
        zip(products, products.dropFirst()).allSatisfy { a, b in
            let (ka, kb) = (sort.key(of: a), sort.key(of: b))
            return sort == .priceAscending
                ? (ka, a.id.rawValue) < (kb, b.id.rawValue)
                : (ka, a.id.rawValue) > (kb, b.id.rawValue)
        }
    }

    @Test("every sort walks every product exactly once, in order", arguments: TestStore.allCases, ProductSort.browsing)
    func walkEverySort(_ store: TestStore, sort: ProductSort) async throws {
        try await TestShop.with(store) { shop throws in
            let sellers = await [try shop.user(.seller), try shop.user(.seller)]
            let products = try await stock(shop, sellers: sellers, count: 57)
            let seen = try await walk(shop, ProductListRequest(sort: sort, limit: try PageLimit(7)))
            #expect(seen.count == 57)
            #expect(Set(seen.map(\.id)) == Set(products.map(\.id)))
            #expect(isOrdered(seen, by: sort))
        }
    }

    @Test("filters narrow the walk and combine with AND", arguments: TestStore.allCases)
    func filters(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let sellers = await [try shop.user(.seller), try shop.user(.seller)]
            let products = try await stock(shop, sellers: sellers, count: 40)
            let filter = ProductFilter(category: .keyboard, sellerID: sellers[0].userID,
                                       minimumPrice: Money(won: 20_000), switchType: .linear)
            let expected = products.filter {
                $0.category == .keyboard && $0.sellerID == sellers[0].userID
                    && $0.pricing.salePrice.won >= 20_000 && $0.spec.switchType == .linear
            }
            for sort in ProductSort.browsing {
                let seen = try await walk(shop, ProductListRequest(filter: filter, sort: sort, limit: try PageLimit(2)))
                #expect(Set(seen.map(\.id)) == Set(expected.map(\.id)))
                #expect(seen.count == expected.count)
            }
        }
    }

    @Test("while others insert and delete, every product present for the whole walk appears exactly once and in order",
          arguments: TestStore.allCases, ProductSort.browsing)
    func walkUnderChurn(_ store: TestStore, sort: ProductSort) async throws {
        try await TestShop.with(store) { shop async throws in
            let seller = try await shop.user(.seller)
            let stable = try await stock(shop, sellers: [seller], count: 120)
            // Products that come and go while the walk runs; the stable ones are never touched.
            let churnSeller = try await shop.user(.seller)
            let churners = try await stock(shop, sellers: [churnSeller], count: 30)
            let catalog = shop.keycat.catalog
            let walker = Task {
                var request = ProductListRequest(sort: sort, limit: try PageLimit(9))
                var seen: [Product] = []
                repeat {
                    let page = try await catalog.list(request)
                    seen += page.items
                    request.cursor = page.nextCursor
                    await Task.yield()
                } while request.cursor != nil
                return seen
            }
            let churn = Task {
                for (index, product) in churners.enumerated() {
                    try await catalog.delete(product.id, by: churnSeller)
                    _ = try await catalog.create(TestShop.draft("새 상품 \(index)", price: Int64(5_000 + index * 3_000)),
                                                 for: churnSeller.userID, by: churnSeller)
                    await Task.yield()
                }
            }
            let seen = try await walker.value
            try await churn.value
            let stableIDs = Set(stable.map(\.id))
            let stableSeen = seen.filter { stableIDs.contains($0.id) }
            #expect(stableSeen.count == stable.count)
            #expect(Set(stableSeen.map(\.id)) == stableIDs)
            #expect(Set(seen.map(\.id)).count == seen.count, "a product appeared twice")
            #expect(isOrdered(stableSeen, by: sort))
        }
    }

    @Test("a tampered, foreign or garbage cursor is invalidCursor", arguments: TestStore.allCases)
    func invalidCursors(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            _ = try await stock(shop, sellers: [seller], count: 5)
            let first = try await shop.keycat.catalog.list(ProductListRequest(sort: .newest, limit: try PageLimit(2)))
            let cursor = try #require(first.nextCursor)
            var tampered = Array(cursor)
            tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
            let cases: [ProductListRequest] = [
                ProductListRequest(sort: .newest, cursor: String(tampered)),
                ProductListRequest(sort: .priceAscending, cursor: cursor),
                ProductListRequest(filter: ProductFilter(category: .keycap), sort: .newest, cursor: cursor),
                ProductListRequest(sort: .newest, cursor: "garbage!"),
                ProductListRequest(sort: .newest, cursor: ""),
                ProductListRequest(sort: .newest, cursor: String(repeating: "A", count: 5_000)),
            ]
            for request in cases {
                await expectError(.invalidCursor) { try await shop.keycat.catalog.list(request) }
            }
            // The genuine cursor still works.
            await #expect(try shop.keycat.catalog.list(ProductListRequest(sort: .newest, cursor: cursor)).items.count == 3)
        }
    }

    @Test("limit must be 1–100", arguments: [0, 101])
    func limits(limit: Int) async {
        await expectError(.validation, field: "limit") { try PageLimit(limit) }
    }

    @Test("bad price bounds are validation errors", arguments: TestStore.allCases)
    func priceBounds(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            await expectError(.validation, field: "min_price") {
                try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(minimumPrice: Money(won: 10), maximumPrice: Money(won: 5))))
            }
        }
    }
}
