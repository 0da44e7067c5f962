import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// A buyer's cancel follows the goods (docs/marketplace.md): what left its seller is never
/// cancelled nor restocked by a cancel; the parcels still pending can be cancelled on their own,
/// charged to their sellers only.
@Suite("A buyer's cancel follows the goods", .serialized)
struct BuyerCancelTests {
    /// Two sellers' parcels in one paid order: sori's switches (fee 3,000) and a catalog
    /// seller's keycaps (fee 2,500).
    struct TwoParcels {
        let shop: TestShop
        let buyer: Principal, sori: Principal, other: Principal
        let switches: Product, keycaps: Product
        let order: Order
        var soriParcel: Shipment { order.shipments.first { $0.sellerID == sori.userID }! }
        var otherParcel: Shipment { order.shipments.first { $0.sellerID == other.userID }! }

        init(_ shop: TestShop) async throws {
            self.shop = shop
            (buyer, sori, other) = (try await shop.user(.buyer), try await shop.user(.seller), try await shop.user(.seller))
            switches = try await shop.keycat.catalog.create(
                TestShop.draft("Switches", price: 20_000) { $0.stock = 38; $0.delivery.fee = Money(won: 3_000) }, for: sori.userID, by: sori)
            keycaps = try await shop.keycat.catalog.create(
                TestShop.draft("Keycaps", price: 24_300) { $0.stock = 10; $0.delivery.fee = Money(won: 2_500) }, for: other.userID, by: other)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: switches.id, quantity: 1), CheckoutItem(productID: keycaps.id, quantity: 1),
            ]), destination: .inline(MarketplaceTests.home)), by: buyer)
            self.order = try await shop.keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
        }

        func shipSori() async throws -> Order {
            try await shop.keycat.orders.ship(shipment: soriParcel.id, carrier: "cj", trackingNumber: "553120261123", by: sori)
        }
    }

    @Test("a month closed with one seller's parcel of an order confirmed and the other's not is a healthy database", arguments: TestStore.allCases)
    func halfSettledOrderIsHealthy(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            _ = try await two.shipSori()
            _ = try await shop.keycat.orders.deliver(shipment: two.soriParcel.id, by: two.sori)
            _ = try await shop.keycat.orders.confirmReceipt(of: two.soriParcel.id, by: two.buyer)
            shop.clock.advance(by: 35 * 86_400)
            let january = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.map(\.sellerID) == [two.sori.userID], "only sori's parcel is payable: \(january)")
            try await shop.expectHealthy()
            // The other parcel ships, arrives and is confirmed: February settles the rest of the payment.
            _ = try await shop.keycat.orders.ship(shipment: two.otherParcel.id, carrier: "cj", trackingNumber: "553120261124", by: two.other)
            _ = try await shop.keycat.orders.deliver(shipment: two.otherParcel.id, by: two.other)
            _ = try await shop.keycat.orders.confirmReceipt(of: two.otherParcel.id, by: two.buyer)
            shop.clock.advance(by: 30 * 86_400)
            let february = try await shop.keycat.settlements.close(try SettlementPeriod("2026-02"), by: shop.operatorConsole)
            #expect(february.map(\.sellerID) == [two.other.userID])
            let kept = (january + february).reduce(Int64(0)) { $0 + $1.payout.won + $1.commission.won }
            #expect(kept == two.order.amount.won, "every won the PG kept is a payout or commission once both are settled")
            try await shop.expectHealthy()
        }
    }

    @Test("the issue's walk: sori's parcel delivered, the buyer's whole cancel is already_shipped and nothing moves",
          arguments: TestStore.allCases)
    func wholeCancelAfterDelivery(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            #expect(two.order.amount == Money(won: 20_000 + 24_300 + 3_000 + 2_500))
            _ = try await two.shipSori()
            let delivered = try await shop.keycat.orders.deliver(shipment: two.soriParcel.id, by: two.sori)
            #expect(delivered.status == .paid && delivered.fulfilment == .partiallyShipped)
            let refusal = await expectFailure(.alreadyShipped) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "changed my mind", by: two.buyer)
            }
            #expect(refusal?.context["shipment_id"] == "\(two.soriParcel.id)" && refusal?.httpStatus == 409)
            // An operator's order-wide cancel is held to the same rule.
            await expectFailure(.alreadyShipped) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "asked by phone", by: shop.operatorConsole)
            }
            let after = try await shop.keycat.orders.order(two.order.id, by: two.buyer)
            #expect(after.status == .paid && after.refundedAmount == .zero)
            #expect(after.shipments.map(\.status).sorted { $0.rawValue < $1.rawValue } == [.delivered, .pending])
            await #expect(try shop.stock(of: two.switches.id) == 37)
            await #expect(try shop.stock(of: two.keycaps.id) == 9)
            await #expect(try shop.keycat.orders.refunds(of: two.order.id, by: two.buyer).isEmpty)
            try await shop.expectHealthy()
        }
    }

    @Test("the pending parcel alone: its lines and fee refunded, its units back, charged to its seller only",
          arguments: TestStore.allCases)
    func cancelThePendingParcel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            _ = try await two.shipSori()
            // Naming the parcel that left is refused; so is a stranger's parcel, or one twice.
            await expectFailure(.alreadyShipped) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "x", shipments: [two.soriParcel.id], by: two.buyer)
            }
            await expectFailure(.notFound) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "x", shipments: [ShipmentID(9_999)], by: two.buyer)
            }
            await expectFailure(.validation) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "x", shipments: [two.otherParcel.id, two.otherParcel.id], by: two.buyer)
            }
            await expectFailure(.validation) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "x", shipments: [], by: two.buyer)
            }
            let stranger = try await shop.user(.buyer)
            await #expect(throws: KeyCatError.self) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "x", shipments: [two.otherParcel.id], by: stranger)
            }

            let cancelled = try await shop.keycat.orders.cancel(
                two.order.id, reason: "found them cheaper", shipments: [two.otherParcel.id], by: two.buyer)
            #expect(cancelled.status == .partiallyRefunded && cancelled.refundedAmount == Money(won: 24_300 + 2_500))
            #expect(cancelled.shipments.first { $0.id == two.otherParcel.id }?.status == .cancelled)
            #expect(cancelled.shipments.first { $0.id == two.soriParcel.id }?.status == .shipped)
            #expect(cancelled.fulfilment == .shipped)
            await #expect(try shop.stock(of: two.keycaps.id) == 10)
            await #expect(try shop.stock(of: two.switches.id) == 37)
            let payment = try #require(shop.simulator.payment(merchantUID: two.order.merchantUID))
            #expect(payment.cancelledAmount == 26_800)
            // Charged to the keycaps' seller only: sori's upcoming settlement carries no refund.
            await #expect(try shop.keycat.settlements.upcoming(by: two.sori).tally.refunds == 0)
            await #expect(try shop.keycat.settlements.upcoming(by: two.other).tally.refunds == 26_800)
            // The whole order can no longer be cancelled: what is left has left.
            await expectFailure(.alreadyShipped) {
                try await shop.keycat.orders.cancel(two.order.id, reason: "all of it", by: two.buyer)
            }
            try await shop.expectHealthy()
        }
    }

    @Test("while every parcel is pending the whole order cancels: refunded in full, every unit back", arguments: TestStore.allCases)
    func wholeCancelWhilePending(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            let cancelled = try await shop.keycat.orders.cancel(two.order.id, reason: "changed my mind", by: two.buyer)
            #expect(cancelled.status == .cancelled && cancelled.refundedAmount == two.order.amount)
            #expect(cancelled.shipments.allSatisfy { $0.status == .cancelled })
            await #expect(try shop.stock(of: two.switches.id) == 38)
            await #expect(try shop.stock(of: two.keycaps.id) == 10)
            try await shop.expectHealthy()
        }
    }

    @Test("naming every pending parcel of a paid order cancels the whole order", arguments: TestStore.allCases)
    func namingEveryParcel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            let cancelled = try await shop.keycat.orders.cancel(
                two.order.id, reason: "both", shipments: [two.otherParcel.id, two.soriParcel.id], by: two.buyer)
            #expect(cancelled.status == .cancelled && cancelled.refundedAmount == two.order.amount)
            await #expect(try shop.stock(of: two.switches.id) == 38)
        }
    }

    @Test("the store refuses a cancel once a parcel has left, however stale the caller's order", arguments: TestStore.allCases)
    func checkedInTheRefundsTransaction(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let two = try await TwoParcels(shop)
            _ = try await two.shipSori()
            // What the service would do with the order it read before sori shipped: the store's
            // transaction sees the shipment and refuses, recording no refund.
            try await Self.onStore(shop.keycat.store.database) { orders, fulfilment in
                await expectFailure(.alreadyShipped) {
                    try await orders.beginRefund(orderID: two.order.id, expectedStatus: .paid, amount: nil, reason: "stale", restock: true,
                                                 target: { $0 ? .cancelled : .partiallyRefunded }, requestKey: nil, requestFingerprint: nil,
                                                 requestedBy: two.buyer.auditActor, at: shop.clock.now())
                }
                await expectFailure(.alreadyShipped) {
                    try await fulfilment.beginLineRefund(
                        orderID: two.order.id, expectedStatus: .paid, shipmentID: two.soriParcel.id, lines: two.soriParcel.lines, amount: nil,
                        reason: "stale", restock: true, cancelling: true, bySeller: false, requestKey: nil, requestFingerprint: nil,
                        requestedBy: two.buyer.auditActor, at: shop.clock.now())
                }
            }
            await #expect(try shop.keycat.orders.refunds(of: two.order.id, by: two.buyer).isEmpty)
            await #expect(try shop.stock(of: two.switches.id) == 37)
        }
    }

    /// The order and fulfilment repositories over the shop's own database, whichever store it is.
    static func onStore(_ database: any SQLDatabase,
                        _ body: (any OrderRepository, any FulfilmentRepository) async throws -> Void) async throws {
        func open<Database: SQLDatabase>(_ database: Database) async throws {
            try await body(SQLOrderRepository(database: database), SQLFulfilmentRepository(database: database))
        }
        try await open(database)
    }
}
