import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// One buyer cannot hold a product's stock without paying: open orders and held units are
/// capped in the transaction that takes the stock (units past the cap are sold on payment; the
/// share all buyers may hold is ``StockHoldShareTests``'), checkouts are rate-limited, and a checkout
/// that finds a product short first releases its expired reservations (issue: one buyer's
/// checkouts drained 50 products, and on the example server the reservations never ended).
@Suite("Stock holds: caps, checkout rate and expired reservations, on every store")
struct StockHoldTests {
    static func holds(orders: Int = 3, units: Int = 10, heldPercent: Int = 50, onShelf: Int = 2,
                      rate: RateLimit? = nil) -> (inout KeyCat.Configuration) -> Void {
        { $0.stockHolds = try! StockHoldPolicy(maximumOpenOrders: orders, maximumUnitsPerProduct: units,
                                               maximumHeldPercent: heldPercent, minimumOnShelf: onShelf, checkoutRate: rate) }
    }

    @Test("a buyer's fourth open order is refused with nothing taken; paying one makes room", arguments: TestStore.allCases)
    func openOrders(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.holds()) { shop in
            let product = try await shop.product(stock: 50)
            let buyer = try await shop.user(.buyer)
            var orders: [Order] = []
            for _ in 0..<3 { orders.append(try await shop.checkout(product, by: buyer)) }
            let refused = await expectFailure(.reservationLimit) { try await shop.checkout(product, by: buyer) }
            #expect(refused?.context["limit"] == "3" && refused?.context["held"] == "3")
            await #expect(try shop.stock(of: product.id) == 47, "the refused order took nothing")
            // Another buyer is not affected.
            _ = try await shop.checkout(product, by: try shop.user(.buyer))
            let payment = try shop.pay(orders[0])
            _ = try await shop.keycat.checkout.confirm(orders[0].id, impUID: payment.impUID, by: buyer)
            _ = try await shop.checkout(product, by: buyer)
            try await shop.expectHealthy()
        }
    }

    /// Checkout runs `READ COMMITTED` on Postgres; the buyer's row is locked before the holds are
    /// counted, so checkouts racing for one buyer still count each other.
    @Test("twelve checkouts of one buyer at once: exactly the cap of them are made, the rest refused",
          arguments: TestStore.allCases)
    func racingOpenOrders(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.holds(orders: 3, units: 50)) { shop in
            let product = try await shop.product(stock: 50)
            let buyer = try await shop.user(.buyer)
            let outcomes = try await withThrowingTaskGroup(of: KeyCatError.Code?.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        do {
                            _ = try await shop.checkout(product, by: buyer)
                            return nil
                        } catch let error as KeyCatError {
                            return error.code
                        }
                    }
                }
                return try await group.reduce(into: [KeyCatError.Code?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 3)
            #expect(outcomes.filter { $0 == .reservationLimit }.count == 9)
            await #expect(try shop.stock(of: product.id) == 47, "only the three orders took stock")
            try await shop.expectHealthy()
        }
    }

    @Test("units of one product a buyer holds are capped across their open orders, not across products; more are sold on payment",
          arguments: TestStore.allCases)
    func unitsPerProduct(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.holds(orders: 4, units: 10)) { shop in
            let keyboard = try await shop.product(stock: 100)
            let keycaps = try await shop.product(stock: 100)
            let buyer = try await shop.user(.buyer)
            _ = try await shop.checkout(keyboard, quantity: 6, by: buyer)
            let past = try await shop.checkout(keyboard, quantity: 5, by: buyer)
            #expect(past.lines.map(\.stockTaken) == [false], "past the buyer's 10: sold on payment, nothing held")
            #expect(try await shop.stock(of: keyboard.id) == 94)
            #expect(try await shop.checkout(keyboard, quantity: 4, by: buyer).lines.map(\.stockTaken) == [true])
            #expect(try await shop.checkout(keycaps, quantity: 10, by: buyer).lines.map(\.stockTaken) == [true])
            #expect(try await shop.stock(of: keyboard.id) == 90)
            #expect(try await shop.stock(of: keycaps.id) == 90)
        }
    }

    @Test("checkouts are rate-limited per buyer; a replayed Idempotency-Key takes no token", arguments: TestStore.allCases)
    func checkoutRate(store: TestStore) async throws {
        let rate = try RateLimit(perSecond: 0.5, burst: 2)
        try await TestShop.with(store, configure: Self.holds(orders: 100, units: 100, rate: rate)) { shop in
            let product = try await shop.product(stock: 50)
            let buyer = try await shop.user(.buyer)
            let first = try await shop.checkout(product, by: buyer, key: "first")
            _ = try await shop.checkout(product, by: buyer)
            let replay = try await shop.checkout(product, by: buyer, key: "first")
            #expect(replay.id == first.id)
            let limited = await expectFailure(.rateLimited) { try await shop.checkout(product, by: buyer) }
            #expect(limited?.context["retry_after"] == "2")
            _ = try await shop.checkout(product, by: try shop.user(.buyer))
            shop.clock.advance(by: 2)
            _ = try await shop.checkout(product, by: buyer)
            await #expect(try shop.stock(of: product.id) == 46)
        }
    }

    @Test("a checkout that finds a product short releases its expired reservations first, through the ledger",
          arguments: TestStore.allCases)
    func expiredReservationsComeBack(store: TestStore) async throws {
        // No share of all buyers' holds: the hoarder holds both units of the product.
        try await TestShop.with(store, configure: Self.holds(heldPercent: 100, onShelf: 0)) { shop in
            let product = try await shop.product(stock: 2)
            let other = try await shop.product(stock: 5)
            let hoarder = try await shop.user(.buyer)
            let held = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: product.id, quantity: 2), CheckoutItem(productID: other.id, quantity: 1),
            ])), by: hoarder)
            let buyer = try await shop.user(.buyer)
            // Still reserved: short.
            await expectFailure(.outOfStock) { try await shop.checkout(product, by: buyer) }
            // Lapsed, but a payment made in time may still arrive: still short.
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + 1)
            await expectFailure(.outOfStock) { try await shop.checkout(product, by: buyer) }
            await #expect(try shop.keycat.orders.order(held.id, by: hoarder).status == .awaitingPayment)
            shop.clock.advance(by: CheckoutService.latePaymentGrace)
            let order = try await shop.checkout(product, by: buyer)
            #expect(order.status == .awaitingPayment)
            await #expect(try shop.keycat.orders.order(held.id, by: hoarder).status == .expired)
            // Every line of the expired order came back, the other product's too.
            #expect(try await shop.stock(of: product.id) == 1)
            #expect(try await shop.stock(of: other.id) == 5)
            try await shop.expectHealthy()
        }
    }

    @Test("a seller cannot check out their own listing", arguments: TestStore.allCases)
    func ownListing(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: seller)
            await expectFailure(.forbidden) { try await shop.checkout(product, by: seller) }
            await #expect(try shop.stock(of: product.id) == 10)
        }
    }
}
