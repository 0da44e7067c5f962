import Foundation
import KeyCat
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

@Suite("Order operations and the cart")
struct OrderOperationsTests {
    enum Operation: String, CaseIterable, Sendable { case ship, deliver, cancel, refund }

    /// (status the order is put in, operation, allowed?)
    static let cases: [(String, Operation, Bool)] = [
        ("awaiting_payment", .ship, false), ("awaiting_payment", .deliver, false), ("awaiting_payment", .refund, false),
        ("awaiting_payment", .cancel, true),
        ("paid", .deliver, false), ("paid", .ship, true), ("paid", .cancel, true), ("paid", .refund, true),
        ("shipped", .ship, false), ("shipped", .cancel, false), ("shipped", .deliver, true), ("shipped", .refund, true),
        ("delivered", .ship, false), ("delivered", .deliver, false), ("delivered", .cancel, false), ("delivered", .refund, true),
        ("expired", .ship, false), ("expired", .deliver, false), ("expired", .cancel, false), ("expired", .refund, false),
        ("refunded", .ship, false), ("refunded", .deliver, false), ("refunded", .cancel, false), ("refunded", .refund, false),
    ]

    @Test("operators' moves follow the state machine; illegal ones are conflicts", arguments: TestStore.allCases, cases)
    func operations(_ store: TestStore, _ move: (String, Operation, Bool)) async throws {
        let (status, operation, allowed) = move
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let admin = shop.operatorConsole
            var order = try await shop.checkout(product, by: buyer)
            if status != "awaiting_payment" && status != "expired" {
                order = try await shop.keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            }
            if status == "expired" {
                shop.clock.advance(by: 21 * 60)  // past the reservation and its grace
                _ = try await shop.keycat.checkout.reconcile()
            }
            if status == "shipped" || status == "delivered" {
                _ = try await shop.keycat.orders.ship(order.id, carrier: "CJ", trackingNumber: "123456789012", by: admin)
            }
            if status == "delivered" { _ = try await shop.keycat.orders.deliver(order.id, by: admin) }
            if status == "refunded" { _ = try await shop.keycat.orders.refund(order.id, RefundRequest(reason: "x"), by: admin) }
            await #expect(try shop.keycat.orders.order(order.id, by: admin).status.rawValue == status)
            let run: () async throws -> Order = {
                switch operation {
                case .ship: try await shop.keycat.orders.ship(order.id, carrier: "CJ", trackingNumber: "223456789012", by: admin)
                case .deliver: try await shop.keycat.orders.deliver(order.id, by: admin)
                case .cancel: try await shop.keycat.orders.cancel(order.id, reason: "test", by: admin)
                case .refund: try await shop.keycat.orders.refund(order.id, RefundRequest(reason: "test"), by: admin)
                }
            }
            if allowed {
                _ = try await run()
            } else {
                // A cancel that meets goods that left says so with its own code.
                let left = operation == .cancel && (status == "shipped" || status == "delivered")
                await expectFailure(left ? .alreadyShipped : .illegalTransition) { try await run() }
            }
            try await shop.expectHealthy()
        }
    }

    @Test("the cart adds up capped at 99, holds at most 50 lines, and shows gone or sold-out products as unavailable", arguments: TestStore.allCases)
    func cart(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let buyer = try await shop.user(.buyer)
            let product = try await shop.product(stock: 200, price: 1_000)
            try await shop.keycat.cart.add(product.id, quantity: 60, by: buyer)
            var cart = try await shop.keycat.cart.add(product.id, quantity: 60, by: buyer)
            #expect(cart.lines.map(\.quantity) == [99])
            #expect(cart.itemsTotal == Money(won: 99_000) && cart.deliveryTotal == Money(won: 3_000))
            cart = try await shop.keycat.cart.set(product.id, quantity: 2, by: buyer)
            #expect(cart.lines.first?.lineTotal == Money(won: 2_000))
            await expectError(.validation) { try await shop.keycat.cart.set(product.id, quantity: 100, by: buyer) }
            let soldOut = try await shop.product(stock: 1)
            try await shop.keycat.cart.add(soldOut.id, quantity: 2, by: buyer)
            let gone = try await shop.product(stock: 5)
            try await shop.keycat.cart.add(gone.id, by: buyer)
            try await shop.keycat.catalog.delete(gone.id, by: shop.operatorConsole)
            cart = try await shop.keycat.cart.cart(of: buyer)
            #expect(cart.lines.map(\.isAvailable) == [true, false, false])
            #expect(cart.total == Money(won: 5_000))
            try await shop.keycat.cart.remove(soldOut.id, by: buyer)
            try await shop.keycat.cart.clear(by: buyer)
            await #expect(try shop.keycat.cart.cart(of: buyer).lines.isEmpty)
            let seller = try await shop.user(.seller)
            for index in 0..<50 {
                let item = try await shop.keycat.catalog.create(TestShop.draft("Keycap \(index)"), for: seller.userID, by: seller)
                try await shop.keycat.cart.add(item.id, by: buyer)
            }
            await expectError(.validation) { try await shop.keycat.cart.add(product.id, by: buyer) }
        }
    }

    @Test("buyers see their own orders and payments by cursor; operators filter by status and buyer", arguments: TestStore.allCases)
    func lists(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 20)
            let buyer = try await shop.user(.buyer)
            let other = try await shop.user(.buyer)
            for _ in 0..<5 { _ = try await shop.paidOrder(product, by: buyer) }
            _ = try await shop.checkout(product, by: other)
            var seen: [OrderID] = []
            var cursor: String?
            repeat {
                let page = try await shop.keycat.orders.list(limit: try PageLimit(2), cursor: cursor, by: buyer)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 5 && Set(seen).count == 5)
            let payments = try await shop.keycat.orders.payments(limit: try PageLimit(3), by: buyer)
            #expect(payments.items.count == 3 && payments.nextCursor != nil)
            let rest = try await shop.keycat.orders.payments(limit: try PageLimit(3), cursor: payments.nextCursor, by: buyer)
            #expect(rest.items.count == 2 && rest.nextCursor == nil)
            let awaiting = try await shop.keycat.orders.list(OrderFilter(status: .awaitingPayment), by: shop.operatorConsole)
            #expect(awaiting.items.map(\.buyerID) == [other.userID])
            let page = try await shop.keycat.orders.list(OrderFilter(buyerID: buyer.userID), limit: try PageLimit(1), by: shop.operatorConsole)
            await expectError(.invalidCursor) {
                try await shop.keycat.orders.list(OrderFilter(status: .paid), cursor: page.nextCursor, by: shop.operatorConsole)
            }
            await expectError(.notFound) { try await shop.keycat.orders.order(seen[0], by: other) }
        }
    }
}
