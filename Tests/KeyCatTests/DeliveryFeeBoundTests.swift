import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The bound on a listing's delivery fee (issue #41, item 5): configurable, checked whenever a fee
/// is set, and a listing above it from before keeps selling at its fee.
@Suite("The delivery fee bound", .serialized)
struct DeliveryFeeBoundTests {
    @Test("a shop may raise the bound; a listing given a fee above a later, lower bound keeps selling at it", arguments: TestStore.allCases)
    func configuredAndLowered(_ store: TestStore) async throws {
        try await TestShop.with(store, configure: { $0.maximumDeliveryFee = Money(won: 100_000) }) { shop in
            let (seller, buyer) = (try await shop.user(.seller), try await shop.user(.buyer))
            let listing = try await shop.keycat.catalog.create(
                TestShop.draft("Freight-only desk", price: 90_000) { $0.delivery.fee = Money(won: 80_000) }, for: seller.userID, by: seller)
            await expectError(.validation, field: "delivery_fee") {
                try await shop.keycat.catalog.create(TestShop.draft { $0.delivery.fee = Money(won: 100_001) }, for: seller.userID, by: seller)
            }

            // The same store opened with the default bound, as after the shop lowered it.
            var configuration = shop.keycat.configuration
            configuration.maximumDeliveryFee = ProductDraft.defaultMaximumDeliveryFee
            let lowered = try await TestShop.open(configuration, clock: shop.clock)
            defer { lowered.close() }
            #expect(lowered.catalog.maximumDeliveryFee == Money(won: 50_000))
            // Other changes go through; the fee stays.
            var stock = ProductChanges(expectedVersion: listing.version)
            stock.stock = 4
            let restocked = try await lowered.catalog.update(listing.id, stock, by: seller)
            #expect(restocked.delivery.fee == Money(won: 80_000) && restocked.stock == 4)
            // A change that sets a fee must respect the bound, even the fee it already has.
            for fee in [80_000, 50_001] as [Int64] {
                var change = ProductChanges(expectedVersion: restocked.version)
                change.deliveryFee = Money(won: fee)
                await expectError(.validation, field: "delivery_fee") { try await lowered.catalog.update(listing.id, change, by: seller) }
            }
            // A buyer is charged what the listing shows.
            let order = try await lowered.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: listing.id, quantity: 1)])),
                                                            by: buyer)
            #expect(order.deliveryTotal == Money(won: 80_000) && order.amount == Money(won: 170_000))
            // Checkout took stock, a new version: the seller lowers the fee within the bound.
            var within = ProductChanges(expectedVersion: try await lowered.catalog.product(listing.id).version)
            within.deliveryFee = Money(won: 50_000)
            await #expect(try lowered.catalog.update(listing.id, within, by: seller).delivery.fee == Money(won: 50_000))
        }
    }

    @Test("price sorts and price bounds compare the item's selling price, the delivery fee not counted", arguments: TestStore.allCases)
    func priceSortsExcludeTheFee(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let feeHeavy = try await shop.keycat.catalog.create(
                TestShop.draft("Fee-heavy", price: 10_000) { $0.delivery.fee = Money(won: 50_000) }, for: seller.userID, by: seller)
            let freeDelivery = try await shop.keycat.catalog.create(
                TestShop.draft("Free delivery", price: 20_000) { $0.delivery.fee = .zero }, for: seller.userID, by: seller)
            let ascending = try await shop.keycat.catalog.list(ProductListRequest(sort: .priceAscending))
            #expect(ascending.items.map(\.id) == [feeHeavy.id, freeDelivery.id])
            let cheap = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(maximumPrice: Money(won: 15_000))))
            #expect(cheap.items.map(\.id) == [feeHeavy.id])
        }
    }

    @Test("a catalog import is held to the bound too, and imports nothing when one listing breaks it")
    func importedCatalog() async throws {
        try await TestShop.with { shop in
            let file = try CatalogFile.decode(Data("""
                {"sellers": [{"key": "s1", "email": "freight@example.com", "nick": "화물상점", "business_number": "1208156302",
                              "representative": "김하늘", "opened_on": "2019-03-12"}],
                 "products": [{"seller": "s1", "kind": "commercial", "category": "keyboard", "title": "₩1 keyboard", "content": "",
                               "regular_price": 1, "price": 1, "delivery_fee": 999999, "delivery_schedule": "standard", "stock": 1}]}
                """.utf8))
            await expectError(.validation, field: "delivery_fee") { try await shop.keycat.importCatalog(file, by: shop.operatorConsole) }
            await #expect(try shop.keycat.catalog.list(ProductListRequest()).items.isEmpty)
        }
    }

    @Test("a bound outside 0–1,000,000 won is refused when KeyCat opens")
    func boundRange() async throws {
        try await TestShop.withConfiguration(.sqlite) { base in
            for bound in [-1, 1_000_001] as [Int64] {
                var configuration = base
                configuration.maximumDeliveryFee = Money(won: bound)
                await expectError(.validation, field: "maximum_delivery_fee") { try await KeyCat.open(configuration) }
            }
        }
    }
}
