import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCatData

/// An order store that runs `meanwhile` once, between a move to paid that found a line's
/// product sold out and the caller learning of it: the moment another path (the buyer's confirm
/// beside the PG's webhook) can pay the same order with the same payment, a unit having come
/// back.
private final class PausingOrders: OrderRepository {
    let inner: any OrderRepository
    let meanwhile: Mutex<(@Sendable () async throws -> Void)?>

    init(inner: any OrderRepository, meanwhile: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.meanwhile = Mutex(meanwhile)
    }

    func apply(_ transition: OrderTransition, at now: Date) async throws(KeyCatError) -> Order? {
        do {
            return try await inner.apply(transition, at: now)
        } catch where error.code == .outOfStock {
            if let pause = meanwhile.withLock({ hook in defer { hook = nil }; return hook }) {
                do { try await pause() } catch { Issue.record("meanwhile: \(error)") }
            }
            throw error
        }
    }

    func create(_ order: NewOrder, at now: Date) async throws(KeyCatError) -> Order { try await inner.create(order, at: now) }
    func find(_ id: OrderID) async throws(KeyCatError) -> Order? { try await inner.find(id) }
    func standing(of id: OrderID) async throws(KeyCatError) -> OrderStanding? { try await inner.standing(of: id) }
    func find(merchantUID: String) async throws(KeyCatError) -> Order? { try await inner.find(merchantUID: merchantUID) }
    func find(buyer: UserID, requestKey: String) async throws(KeyCatError) -> Order? { try await inner.find(buyer: buyer, requestKey: requestKey) }
    func list(_ filter: OrderFilter, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Order] {
        try await inner.list(filter, after: position, limit: limit)
    }
    func setOutcomeUnknown(_ id: OrderID, _ unknown: Bool) async throws(KeyCatError) { try await inner.setOutcomeUnknown(id, unknown) }
    func ordersToReconcile(at now: Date, limit: Int) async throws(KeyCatError) -> [Order] { try await inner.ordersToReconcile(at: now, limit: limit) }
    func recordVoiding(_ payment: OrderPayment) async throws(KeyCatError) -> Bool { try await inner.recordVoiding(payment) }
    func markVoided(impUID: String, audit: AuditEntry?) async throws(KeyCatError) { try await inner.markVoided(impUID: impUID, audit: audit) }
    func paymentsToVoid(limit: Int) async throws(KeyCatError) -> [OrderPayment] { try await inner.paymentsToVoid(limit: limit) }
    func payments(of buyerID: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [OrderPayment] {
        try await inner.payments(of: buyerID, after: position, limit: limit)
    }
    func payments(of orderID: OrderID) async throws(KeyCatError) -> [OrderPayment] { try await inner.payments(of: orderID) }
    func beginRefund(orderID: OrderID, expectedStatus: OrderStatus, amount: Money?, reason: String, restock: Bool,
                     target: (_ isFull: Bool) -> OrderStatus, requestKey: String?, requestFingerprint: String?,
                     requestedBy: String, at now: Date) async throws(KeyCatError) -> Refund {
        try await inner.beginRefund(orderID: orderID, expectedStatus: expectedStatus, amount: amount, reason: reason, restock: restock,
                                    target: target, requestKey: requestKey, requestFingerprint: requestFingerprint,
                                    requestedBy: requestedBy, at: now)
    }
    func refund(of orderID: OrderID, requestKey: String) async throws(KeyCatError) -> Refund? { try await inner.refund(of: orderID, requestKey: requestKey) }
    func completeRefund(_ refund: Refund, audit: AuditEntry?, at now: Date) async throws(KeyCatError) -> Order {
        try await inner.completeRefund(refund, audit: audit, at: now)
    }
    func failRefund(_ refund: Refund, audit: AuditEntry, at now: Date) async throws(KeyCatError) {
        try await inner.failRefund(refund, audit: audit, at: now)
    }
    func pendingRefunds(begunBy: Date, limit: Int) async throws(KeyCatError) -> [Refund] { try await inner.pendingRefunds(begunBy: begunBy, limit: limit) }
    func refunds(of orderID: OrderID) async throws(KeyCatError) -> [Refund] { try await inner.refunds(of: orderID) }
}

@Suite("A webhook that finds a line sold out while the buyer's confirm pays the order")
struct WebhookConfirmRaceTests {
    @Test("the payment that paid the order is not cancelled: the webhook answers that it is paid",
          arguments: Backend.allCases.filter { $0 != .inMemory })
    func soldOutThenPaid(_ backend: Backend) async throws {
        try await withCommerce(backend, units: 2) { shop in
            // Two units, one buyer wanting both, at a shop that holds at most half its stock for
            // an order: the line is sold on payment. Another order takes the units first.
            let holding = CheckoutService(
                orders: shop.orders, carts: shop.carts, products: shop.products, gateway: shop.gateway,
                webhookEvents: InMemoryWebhookEventStore(), idempotency: InMemoryIdempotencyStore(), clock: shop.clock, holds: .standard)
            let late = try await holding.checkout(CheckoutRequest(.items([CheckoutItem(productID: shop.product.id, quantity: 2)])),
                                                  by: shop.buyer)
            #expect(late.lines.map(\.stockTaken) == [false])
            let first = try await shop.order(quantity: 2)
            shop.gateway.add(GatewayPayment(impUID: "imp_first", merchantUID: first.merchantUID, status: .paid, amount: first.amount))
            _ = try await shop.checkout.confirm(first.id, impUID: "imp_first", by: shop.buyer)
            shop.gateway.add(GatewayPayment(impUID: "imp_late", merchantUID: late.merchantUID, status: .paid, amount: late.amount))
            // The webhook finds the product sold out; before it fails the order, two units come
            // back and the buyer's confirm pays the order with the same payment.
            let (products, checkout, buyer, clock) = (shop.products, shop.checkout, shop.buyer, shop.clock)
            let productID = shop.product.id
            let orders = PausingOrders(inner: shop.orders) {
                _ = try await products.adjustStock(productID, by: StockAdjustment(change: 2, reason: "재입고"), at: clock.now(),
                                                   audit: AuditEntry(actor: "test", action: "product.adjust_stock", at: clock.now()))
                #expect(try await checkout.confirm(late.id, impUID: "imp_late", by: buyer).status == .paid)
            }
            let webhooks = CheckoutService(
                orders: orders, carts: shop.carts, products: shop.products,
                gateway: shop.gateway, webhookEvents: InMemoryWebhookEventStore(), idempotency: InMemoryIdempotencyStore(), clock: shop.clock)
            let outcome = try await webhooks.handleWebhook(id: "wh_late", impUID: "imp_late", merchantUID: late.merchantUID)
            #expect(orders.meanwhile.withLock { $0 == nil }, "the confirm ran between the two moves")
            guard case .settled(.alreadyPaid(let order)) = outcome else { Issue.record("the webhook did \(outcome)"); return }
            #expect(order.status == .paid && order.impUID == "imp_late")
            // Until 2026-12-01 the webhook went on to cancel the payment in full at the PG.
            #expect(shop.gateway.payments.withLock { $0["imp_late"]?.status } == .paid)
            #expect(shop.gateway.cancels.load(ordering: .relaxed) == 0)
            await #expect(try shop.orders.payments(of: late.id).map(\.status) == [.paid])
        }
    }
}
