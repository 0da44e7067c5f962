import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The cart charges delivery as checkout does (issue #41, item 9): one parcel per seller, charged
/// the highest fee among its lines once, so the cart's total is the order's amount.
@Suite("The cart's delivery fees", .serialized)
struct CartDeliveryTests {
    /// A listing of `seller` at `price` with a delivery fee of `fee`.
    static func listing(_ shop: TestShop, _ seller: Principal, _ title: String, price: Int64, fee: Int64, stock: Int = 10) async throws -> Product {
        try await shop.keycat.catalog.create(TestShop.draft(title, price: price) { $0.delivery.fee = Money(won: fee); $0.stock = stock },
                                             for: seller.userID, by: seller)
    }

    @Test("one seller's two products: the cart shows the delivery total and amount the order checkout makes of it", arguments: TestStore.allCases)
    func oneSellerBundled(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (seller, buyer) = (try await shop.user(.seller), try await shop.user(.buyer))
            let board = try await Self.listing(shop, seller, "Board", price: 70_000, fee: 3_000)
            let switches = try await Self.listing(shop, seller, "Switches", price: 2_000, fee: 2_500)
            try await shop.keycat.cart.add(board.id, by: buyer)
            let cart = try await shop.keycat.cart.add(switches.id, by: buyer)
            // Not 3,000 + 2,500: the two ship together for the higher fee.
            #expect(cart.deliveryTotal == Money(won: 3_000) && cart.total == Money(won: 75_000))
            #expect(cart.parcels.count == 1 && cart.parcels.first?.lines == [0, 1] && cart.parcels.first?.sellerID == seller.userID)
            // Each line still shows its product's own fee, as an order line does.
            #expect(cart.lines.map(\.deliveryFee) == [Money(won: 3_000), Money(won: 2_500)])

            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart), by: buyer)
            #expect(order.deliveryTotal == cart.deliveryTotal && order.amount == cart.total && order.itemsTotal == cart.itemsTotal)
            #expect(order.shipments.map(\.deliveryFee) == cart.parcels.map(\.deliveryFee))
        }
    }

    @Test("two sellers are two parcels, and a line that cannot be bought charges no fee", arguments: TestStore.allCases)
    func sellersAndUnavailableLines(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (first, second, third) = (try await shop.user(.seller), try await shop.user(.seller), try await shop.user(.seller))
            let buyer = try await shop.user(.buyer)
            let caps = try await Self.listing(shop, first, "Caps", price: 30_000, fee: 2_500)
            let board = try await Self.listing(shop, second, "Board", price: 150_000, fee: 4_000)
            let cable = try await Self.listing(shop, first, "Cable", price: 15_000, fee: 3_500)
            let rare = try await Self.listing(shop, third, "Rare artisan", price: 90_000, fee: 9_000, stock: 1)
            for product in [caps, board, cable] { try await shop.keycat.cart.add(product.id, by: buyer) }
            var cart = try await shop.keycat.cart.add(rare.id, quantity: 2, by: buyer)
            // The artisan keycap is short of stock: its seller's parcel is left out until it can be bought.
            #expect(cart.lines.map(\.isAvailable) == [true, true, true, false])
            #expect(cart.parcels.map(\.sellerID) == [first.userID, second.userID] && cart.parcels.map(\.lines) == [[0, 2], [1]])
            #expect(cart.deliveryTotal == Money(won: 3_500 + 4_000) && cart.total == Money(won: 195_000 + 7_500))

            cart = try await shop.keycat.cart.remove(rare.id, by: buyer)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart), by: buyer)
            #expect(order.deliveryTotal == cart.deliveryTotal && order.amount == cart.total)
            #expect(Dictionary(uniqueKeysWithValues: order.shipments.map { ($0.sellerID, $0.deliveryFee) })
                    == Dictionary(uniqueKeysWithValues: cart.parcels.map { ($0.sellerID!, $0.deliveryFee) }))
        }
    }
}
