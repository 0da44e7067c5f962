import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// What a seller's line refund means when it names no line (the rest of the parcel), and how
/// much a parcel of an order paid before the settlement ledger gives back.
@Suite("Line refunds without lines", .serialized)
struct LineRefundDefaultsTests {
    @Test("a refund naming no line refunds what the parcel has not refunded yet, once, and then says nothing is left",
          arguments: TestStore.allCases)
    func restOfTheParcel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let keycap = try await shop.keycat.catalog.create(TestShop.draft("키캡", price: 30_000) { $0.stock = 5 }, for: seller.userID, by: seller)
            let board = try await shop.keycat.catalog.create(TestShop.draft("보드", price: 100_000) { $0.stock = 5 }, for: seller.userID, by: seller)
            let placed = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: keycap.id, quantity: 1), CheckoutItem(productID: board.id, quantity: 1),
            ])), by: buyer)
            let order = try await shop.keycat.checkout.confirm(placed.id, impUID: try shop.pay(placed).impUID, by: buyer)
            let parcel = try #require(order.shipments.first)
            #expect(parcel.lines.count == 2)
            let keycapLine = try #require(order.lines.firstIndex { $0.productID == keycap.id })
            _ = try await shop.keycat.orders.refundLines(of: parcel.id, LineRefundRequest(lines: [keycapLine], reason: "out of stock"), by: seller)

            let rest = LineRefundRequest(reason: "the board never came", idempotencyKey: "rest-1")
            let refunded = try await shop.keycat.orders.refundLines(of: parcel.id, rest, by: seller)
            #expect(refunded.lines.allSatisfy { $0.refundedAt != nil })
            // The parcel never left: every line and its fee come back, each once.
            #expect(refunded.refundedAmount == order.amount)
            await #expect(try shop.stock(of: keycap.id) == 5)
            await #expect(try shop.stock(of: board.id) == 5)
            // The same request again is the same refund; another finds nothing left.
            await #expect(try shop.keycat.orders.refundLines(of: parcel.id, rest, by: seller).refundedAmount == order.amount)
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.refundLines(of: parcel.id, LineRefundRequest(reason: "again"), by: seller)
            }
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 2)
            try await shop.expectHealthy()
        }
    }

    /// Two sellers' parcels in one paid order, as if paid before the settlement ledger existed
    /// (migration 17): no settlement entries say what a line holds. A's board is 100,000 + 3,000,
    /// B's keycaps 50,000 + 2,500.
    static func preLedgerOrder(in shop: TestShop) async throws
        -> (sellerA: Principal, sellerB: Principal, buyer: Principal, board: Product, caps: Product, order: Order) {
        let (sellerA, sellerB) = (try await shop.user(.seller), try await shop.user(.seller))
        let buyer = try await shop.user(.buyer)
        let board = try await shop.keycat.catalog.create(TestShop.draft("보드", price: 100_000) { $0.stock = 5; $0.delivery.fee = Money(won: 3_000) },
                                         for: sellerA.userID, by: sellerA)
        let caps = try await shop.keycat.catalog.create(TestShop.draft("키캡", price: 50_000) { $0.stock = 5; $0.delivery.fee = Money(won: 2_500) },
                                        for: sellerB.userID, by: sellerB)
        let placed = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
            CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 1),
        ])), by: buyer)
        let order = try await shop.keycat.checkout.confirm(placed.id, impUID: try shop.pay(placed).impUID, by: buyer)
        try await shop.execute("DELETE FROM settlement_entries WHERE order_id = \(order.id.rawValue)")
        return (sellerA, sellerB, buyer, board, caps, order)
    }

    @Test("a parcel of an order paid before the ledger gives back at most its own value, its parts and lines together",
          arguments: TestStore.allCases)
    func legacyParcelCapped(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (sellerA, sellerB, _, board, caps, order) = try await Self.preLedgerOrder(in: shop)
            let parcelA = try #require(order.shipments.first { $0.sellerID == sellerA.userID })
            let boardLine = try #require(order.lines.firstIndex { $0.productID == board.id })

            // A gives back most of their parcel's 103,000 as a part of its value…
            let part = try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(amount: Money(won: 90_000), reason: "scratched"),
                                                                by: sellerA)
            #expect(part.refundedAmount == Money(won: 90_000))
            // …and cannot give back more than the 13,000 left, though the order holds 65,500: B's goods.
            await expectFailure(.cancelAmountExceedsCancellable) {
                try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(amount: Money(won: 20_000), reason: "again"), by: sellerA)
            }
            // B's parcel never left: refunding its line gives back its fee too, and then no part of it is left.
            let parcelB = try #require(order.shipments.first { $0.sellerID == sellerB.userID })
            let capsLine = try #require(order.lines.firstIndex { $0.productID == caps.id })
            let whole = try await shop.keycat.orders.refundLines(of: parcelB.id, LineRefundRequest(lines: [capsLine], reason: "sold out"), by: sellerB)
            #expect(whole.refundedAmount == Money(won: 90_000 + 52_500))
            await expectFailure(.cancelAmountExceedsCancellable) {
                try await shop.keycat.orders.refundLines(of: parcelB.id, LineRefundRequest(amount: Money(won: 1_000), reason: "the fee"), by: sellerB)
            }
            // Refunding the board's line now gives back what is left of A's parcel, fee included.
            let rest = try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(lines: [boardLine], reason: "returned"), by: sellerA)
            #expect(rest.refundedAmount == order.amount)
        }
    }

    @Test("a seller does not refund a parcel of an order paid before the ledger once an operator refunded it by amount",
          arguments: TestStore.allCases)
    func legacyOrderWideRefund(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (sellerA, _, _, _, _, order) = try await Self.preLedgerOrder(in: shop)
            // The operator gives back 100,000 across the order: whose goods, no row says.
            _ = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 100_000), reason: "late"), by: shop.operatorConsole)
            let parcelA = try #require(order.shipments.first { $0.sellerID == sellerA.userID })
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(reason: "returned"), by: sellerA)
            }
            // The operator still may.
            let rest = try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(reason: "returned"), by: shop.operatorConsole)
            #expect(rest.refundedAmount == order.amount)
        }
    }

    @Test("an approved return of a pre-ledger parcel its parts used up closes without a refund", arguments: TestStore.allCases)
    func legacyReturnHoldingNothing(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (sellerA, _, buyer, _, _, order) = try await Self.preLedgerOrder(in: shop)
            let parcelA = try #require(order.shipments.first { $0.sellerID == sellerA.userID })
            _ = try await shop.keycat.orders.ship(shipment: parcelA.id, carrier: "CJ대한통운", trackingNumber: "5531-2026-1123", by: sellerA)
            _ = try await shop.keycat.orders.deliver(shipment: parcelA.id, by: sellerA)
            // A's compensations give back the whole parcel: 103,000.
            _ = try await shop.keycat.orders.refundLines(of: parcelA.id, LineRefundRequest(amount: Money(won: 103_000), reason: "broken"), by: sellerA)
            let request = try await shop.keycat.orders.requestReturn(of: parcelA.id, reason: "고장", by: buyer)
            // Nothing is left to send the PG: approving sees the return through without money,
            // rather than failing (and reconciliation retrying it) for ever.
            let approved = try await shop.keycat.orders.approveReturn(request.id, by: sellerA)
            #expect(approved.refundedAmount == Money(won: 103_000))
            #expect(try await shop.keycat.orders.returnRequest(request.id, by: buyer).refundedAt != nil)
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 1)
        }
    }
}
