import Foundation
import KeyCatDomain
import Testing
@testable import KeyCatData

/// The gateway side of reconciliation, the same on every store.
@Suite("Gateway-side reconcile on every store")
struct GatewayReconcileTests {
    @Test("a PG payment for no order is an orphan: reported by default, voided only when asked", arguments: Backend.allCases)
    func orphans(_ backend: Backend) async throws {
        try await withCommerce(backend) { shop in
            let order = try await shop.order()
            shop.gateway.add(GatewayPayment(impUID: "imp_\(order.id)", merchantUID: order.merchantUID, status: .paid,
                                            amount: order.amount))
            _ = try await shop.checkout.confirm(order.id, impUID: "imp_\(order.id)", by: shop.buyer)
            shop.gateway.add(GatewayPayment(impUID: "imp_lost", merchantUID: "kc_lost", status: .paid, amount: Money(won: 9_000)))
            let report = try await shop.checkout.reconcile()
            #expect(report.gatewayPaymentsChecked == 2 && report.orphans == 1 && report.orphanAmount == Money(won: 9_000))
            #expect(report.orphanPayments.map(\.reason) == [.noOrder] && report.orphansVoided == 0)
            #expect(shop.gateway.cancels.load(ordering: .relaxed) == 0)
            let voided = try await shop.checkout.reconcile(gateway: GatewayReconciliation(voidOrphans: true))
            #expect(voided.orphansVoided == 1)
            #expect(shop.gateway.payments.withLock { $0["imp_lost"]?.status } == .cancelled)
            #expect(try await shop.checkout.reconcile(gateway: .off).gatewayPaymentsChecked == 0)
            await #expect(try shop.orders.find(order.id)?.status == .paid)
        }
    }
}
