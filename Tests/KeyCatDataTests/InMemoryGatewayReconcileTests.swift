import Foundation
import KeyCatData
import KeyCatDomain
import Testing

/// The gateway side of reconciliation and retry-safe refunds over the in-memory repositories, so
/// the use cases are specified without a file.
@Suite("Gateway-side reconcile and refund keys on in-memory repositories")
struct InMemoryGatewayReconcileTests {
    let base = InMemoryCheckoutTests()

    func paidOrder() async throws -> Order {
        let order = try await base.order()
        base.gateway.add(GatewayPayment(impUID: "imp_\(order.id)", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
        return try await base.checkout.confirm(order.id, impUID: "imp_\(order.id)", by: base.buyer)
    }

    @Test("a PG payment for no order is an orphan: reported by default, voided only when asked")
    func orphans() async throws {
        _ = try await paidOrder()
        base.gateway.add(GatewayPayment(impUID: "imp_lost", merchantUID: "kc_lost", status: .paid, amount: Money(won: 9_000)))
        let report = try await base.checkout.reconcile()
        #expect(report.gatewayPaymentsChecked == 2 && report.orphans == 1 && report.orphanAmount == Money(won: 9_000))
        #expect(report.orphanPayments.map(\.reason) == [.noOrder] && report.orphansVoided == 0)
        #expect(base.gateway.cancels.load(ordering: .relaxed) == 0)
        let voided = try await base.checkout.reconcile(gateway: GatewayReconciliation(voidOrphans: true))
        #expect(voided.orphansVoided == 1)
        #expect(base.gateway.payments.withLock { $0["imp_lost"]?.status } == .cancelled)
        #expect(try await base.checkout.reconcile(gateway: .off).gatewayPaymentsChecked == 0)
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
