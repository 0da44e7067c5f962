import Foundation
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// Orders the PG and a retry cannot split: no shipment while a cancellation's refund is in
/// flight, and a checkout key kept on its order, so a retry never makes a second order.
@Suite("Orders: shipping beside a pending refund, and checkout keys on their orders")
struct OrderRaceTests {
    @Test("an order whose cancellation's refund is pending cannot ship; once it settles, it is cancelled", arguments: TestStore.allCases)
    func noShipmentDuringCancel(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            // The PG cancels, but its answer is lost: the refund stays pending.
            shop.simulator.configureFaults(PGFaultConfiguration(lostAnswerRate: 1))
            _ = await expectFailure(.gatewayTimeout) { try await shop.keycat.orders.cancel(order.id, reason: "마음이 바뀌었어요", by: buyer) }
            shop.simulator.configureFaults(.none)
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).contains { $0.status == .pending })
            let refused = try await #require(throws: KeyCatError.self) {
                try await shop.keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: "123456789012", by: shop.operatorConsole)
            }
            #expect(refused.code == .illegalTransition && refused.message.contains("refund in progress"), "\(refused)")
            shop.passRefundWindow()
            _ = try await shop.keycat.checkout.reconcile()
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .cancelled)
            try await shop.expectHealthy()
        }
    }

    @Test("a checkout key is kept on its order: with its stored answer lost, a retry answers the same order", arguments: TestStore.allCases)
    func keyOnTheOrder(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let first = try await shop.checkout(product, quantity: 2, by: buyer, key: "retry-me")
            // The key's stored answer is gone, as when the process died before writing it.
            try await shop.execute("DELETE FROM idempotency_keys")
            let retry = try await shop.checkout(product, quantity: 2, by: buyer, key: "retry-me")
            #expect(retry.id == first.id)
            await #expect(try shop.stock(of: product.id) == 3, "one order's units taken, not two")
            let other = await expectFailure(.idempotencyKeyReused) { try await shop.checkout(product, quantity: 1, by: buyer, key: "retry-me") }
            #expect(other != nil)
            // Another buyer's same key is theirs.
            let stranger = try await shop.checkout(product, by: try shop.user(.buyer), key: "retry-me")
            #expect(stranger.id != first.id)
        }
    }
}
