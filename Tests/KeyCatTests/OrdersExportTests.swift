import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The accountant's export, through the library on both stores (`keycat-admin orders export`,
/// over the demo, is `AdminExportTests`').
@Suite("Orders export for a period")
struct OrdersExportTests {
    @Test("a period's order, payment and refund come out together, with lines and agreeing amounts; others stay out",
          arguments: TestStore.allCases)
    func period(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let start = shop.clock.now()
            let order = try await shop.paidOrder(product, quantity: 2, by: buyer)
            _ = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 3_000), reason: "dent"),
                                                    by: shop.operatorConsole)
            shop.clock.advance(by: 2 * 86_400)
            let later = try await shop.checkout(product, by: buyer)  // after the period

            let export = try await shop.keycat.exportOrders(since: start, until: start.addingTimeInterval(86_400),
                                                            by: shop.operatorConsole)
            #expect(export.orders.map(\.id) == [order.id])
            #expect(export.orders.first?.lines.first?.quantity == 2)
            #expect(export.orders.first?.refundedAmount == Money(won: 3_000))
            #expect(export.payments.map(\.amount) == [order.amount])
            #expect(export.refunds.map(\.amount) == [Money(won: 3_000)])
            let whole = try await shop.keycat.exportOrders(since: start, until: shop.clock.now().addingTimeInterval(1),
                                                           by: shop.operatorConsole)
            #expect(whole.orders.map(\.id) == [order.id, later.id])
            let empty = try await shop.keycat.exportOrders(since: start.addingTimeInterval(-86_400), until: start,
                                                           by: shop.operatorConsole)
            #expect(empty.orders.isEmpty && empty.payments.isEmpty && empty.refunds.isEmpty)
            // Each copy taken is in the audit log: who, and how many orders of which period.
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "orders.export"), by: shop.operatorConsole)
            #expect(audit.items.count == 3 && audit.items.map(\.detail).contains { $0.hasPrefix("2 orders of [") }, "\(audit.items)")
            await expectError(.forbidden) { try await shop.keycat.exportOrders(since: start, until: shop.clock.now(), by: buyer) }
            await expectError(.validation, field: "until") {
                try await shop.keycat.exportOrders(since: start, until: start, by: shop.operatorConsole)
            }
        }
    }
}
