import Foundation
import KeyCatData
import KeyCatDomain
import Testing

/// Retry-safe refund keys over the in-memory repositories, so the use case is specified without a
/// file (on SQLite and Postgres: `RefundDurabilityTests` and `PaymentSafetyTests`). Orphans are
/// `GatewayReconcileTests`', on every store.
@Suite("Gateway-side reconcile and refund keys on in-memory repositories")
struct InMemoryGatewayReconcileTests {
    let base = InMemoryCheckoutTests()

    func paidOrder() async throws -> Order {
        let order = try await base.order()
        base.gateway.add(GatewayPayment(impUID: "imp_\(order.id)", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
        return try await base.checkout.confirm(order.id, impUID: "imp_\(order.id)", by: base.buyer)
    }

    @Test("a refund retried with its key returns the first refund's order; the same key for another refund is refused")
    func refundKeys() async throws {
        let order = try await paidOrder()
        let service = OrderService(orders: base.orders, gateway: base.gateway, idempotency: InMemoryIdempotencyStore(),
                                   cursors: HMACPageCursorCodec(key: [UInt8](repeating: 7, count: 32)), clock: base.clock)
        let admin = Principal.operatorConsole("tester")
        let request = RefundRequest(amount: Money(won: 500), reason: "bent pin", idempotencyKey: "r-1")
        _ = try await service.refund(order.id, request, by: admin)
        base.clock.advance(by: 2 * 24 * 60 * 60)  // the key's answer record has expired
        let again = try await service.refund(order.id, request, by: admin)
        #expect(again.refundedAmount == Money(won: 500))
        #expect(base.gateway.cancels.load(ordering: .relaxed) == 1)
        await #expect(throws: KeyCatError.self) {
            try await service.refund(order.id, RefundRequest(amount: Money(won: 600), reason: "bent pin", idempotencyKey: "r-1"), by: admin)
        }
        #expect(try base.orders.refunds(of: order.id).map(\.requestKey) == ["r-1"])
    }
}
