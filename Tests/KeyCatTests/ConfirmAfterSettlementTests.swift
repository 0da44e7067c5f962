import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCat

/// The simulator through the PG client, with two pauses: the first read of a payment by its id
/// reads it, then runs `meanwhile` before answering what it read, so another path can settle
/// the payment between a confirm's read and its settling; the first cancel runs `beforeCancel`
/// before it is sent, so another path can act while a refund is on its way.
final class PausingGateway: PaymentGateway {
    let inner: any PaymentGateway
    let meanwhile = Mutex<(@Sendable () async throws -> Void)?>(nil)
    let beforeCancel = Mutex<(@Sendable () async throws -> Void)?>(nil)

    init(inner: any PaymentGateway) { self.inner = inner }

    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) { try await inner.prepare(merchantUID: merchantUID, amount: amount) }
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment {
        let read = try await inner.payment(impUID: impUID)
        if let pause = meanwhile.withLock({ hook in defer { hook = nil }; return hook }) {
            do { try await pause() } catch { Issue.record("meanwhile: \(error)") }
        }
        return read
    }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(merchantUID: merchantUID) }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment {
        if let pause = beforeCancel.withLock({ hook in defer { hook = nil }; return hook }) {
            do { try await pause() } catch { Issue.record("before the cancel: \(error)") }
        }
        return try await inner.cancel(cancellation)
    }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage { try await inner.payments(query) }
}

/// A buyer's confirm can arrive after the PG's webhook for the same payment was applied: the
/// webhook found the payment could not pay for the order, failed or closed the order and
/// cancelled the payment. The confirm then re-reads a cancelled payment, and the buyer must hear
/// what the webhook found (the answer the confirm would have given had it come first), not that
/// the payment is cancelled.
@Suite("A confirm after the webhook settled the payment answers what the webhook found")
struct ConfirmAfterSettlementTests {
    @Test("the webhook found the line's product sold out: the confirm answers out of stock, naming it", arguments: TestStore.allCases)
    func soldOutByTheWebhook(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 2)
            let first = try await shop.user(.buyer)
            let second = try await shop.user(.buyer)
            let late = try await shop.checkout(product, quantity: 2, by: second)
            #expect(late.lines.map(\.stockTaken) == [false], "the whole stock cannot be held: sold on payment")
            _ = try await shop.paidOrder(product, quantity: 2, by: first)
            let payment = try shop.pay(late)
            let delivered = try await shop.keycat.checkout.handleWebhook(id: "wh_sold_out", impUID: payment.impUID, merchantUID: late.merchantUID)
            guard case .settled(.soldOut(_, product.id)) = delivered else { Issue.record("the webhook did \(delivered)"); return }
            #expect(shop.simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            let refused = await expectFailure(.outOfStock) {
                try await shop.keycat.checkout.confirm(late.id, impUID: payment.impUID, by: second)
            }
            #expect(refused?.context["product_id"] == "\(product.id)")
            #expect(refused?.context["status"] == "failed")
            // Nothing moved twice: one voided payment, one cancellation, the stock sold once.
            await #expect(try shop.keycat.orders.payments(of: late.id, by: second).map(\.status) == [.voided])
            #expect(shop.simulator.cancellations(impUID: payment.impUID).count == 1)
            await #expect(try shop.stock(of: product.id) == 0)
            try await shop.expectHealthy()
        }
    }

    @Test("the confirm read the payment paid, then the webhook failed the order: the confirm answers out of stock",
          arguments: TestStore.allCases)
    func webhookBetweenReadAndSettle(store: TestStore) async throws {
        var pausing: PausingGateway?
        try await TestShop.with(store, gateway: { client in
            pausing = PausingGateway(inner: client)
            return pausing!
        }) { shop, simulator in
            let gateway = try #require(pausing)
            let product = try await shop.product(stock: 2)
            let first = try await shop.user(.buyer)
            let second = try await shop.user(.buyer)
            let late = try await shop.checkout(product, quantity: 2, by: second)
            let early = try await shop.checkout(product, quantity: 2, by: first)
            _ = try await shop.keycat.checkout.confirm(
                early.id, impUID: try simulator.pay(merchantUID: early.merchantUID, cardNumber: PGTestCard.success.number).impUID, by: first)
            let payment = try simulator.pay(merchantUID: late.merchantUID, cardNumber: PGTestCard.success.number)
            // The confirm reads the payment paid; before it settles, the webhook (reading it
            // paid too) finds the units sold, fails the order and cancels the payment.
            gateway.meanwhile.withLock { hook in
                hook = {
                    let delivered = try await shop.keycat.checkout.handleWebhook(id: "wh_between", impUID: payment.impUID, merchantUID: late.merchantUID)
                    guard case .settled(.soldOut) = delivered else { Issue.record("the webhook did \(delivered)"); return }
                }
            }
            let refused = await expectFailure(.outOfStock) {
                try await shop.keycat.checkout.confirm(late.id, impUID: payment.impUID, by: second)
            }
            #expect(refused?.context["product_id"] == "\(product.id)")
            #expect(gateway.meanwhile.withLock { $0 == nil }, "the webhook ran between the confirm's read and its settling")
            await #expect(try shop.keycat.orders.payments(of: late.id, by: second).map(\.status) == [.voided])
            #expect(simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            await #expect(try shop.stock(of: product.id) == 0)
            try await shop.expectHealthy()
        }
    }

    @Test("the webhook found the order expired: the confirm answers that the order closed", arguments: TestStore.allCases)
    func closedBeforeTheWebhook(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + CheckoutService.latePaymentGrace + 1)
            #expect(try await shop.keycat.checkout.reconcile().expired == 1)
            let payment = try shop.pay(order)  // after the reservation ran out
            let delivered = try await shop.keycat.checkout.handleWebhook(id: "wh_closed", impUID: payment.impUID, merchantUID: order.merchantUID)
            guard case .settled(.voided) = delivered else { Issue.record("the webhook did \(delivered)"); return }
            let refused = await expectFailure(.illegalTransition) {
                try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            }
            #expect(refused?.context["status"] == "expired")
            await #expect(try shop.keycat.orders.payments(of: order.id, by: buyer).map(\.status) == [.voided])
            try await shop.expectHealthy()
        }
    }

    @Test("the webhook found a forged amount for an order that had expired: the confirm answers forged too",
          arguments: TestStore.allCases)
    func forgedAfterClosing(store: TestStore) async throws {
        try await TestShop.with(store, gateway: { UnpreparedGateway(inner: $0) }) { shop, simulator in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + CheckoutService.latePaymentGrace + 1)
            #expect(try await shop.keycat.checkout.reconcile().expired == 1)
            // Settling checks the amount before the order's state: the webhook answers forged.
            let forged = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number, amount: 100)
            let delivered = try await shop.keycat.checkout.handleWebhook(id: "wh_forged_closed", impUID: forged.impUID,
                                                                         merchantUID: order.merchantUID)
            guard case .settled(.forged) = delivered else { Issue.record("the webhook did \(delivered)"); return }
            let refusal = await expectFailure(.paymentAmountForged) {
                try await shop.keycat.checkout.confirm(order.id, impUID: forged.impUID, by: buyer)
            }
            #expect(refusal?.context["paid"] == "100")
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .expired)
            #expect(simulator.payment(impUID: forged.impUID)?.status == .cancelled)
            try await shop.expectHealthy()
        }
    }

    @Test("a payment the buyer's own bank declined is still declined, whatever the order", arguments: TestStore.allCases)
    func declinedStaysDeclined(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let declined = try shop.pay(order, card: .declined)
            _ = try await shop.keycat.checkout.handleWebhook(id: "wh_declined", impUID: declined.impUID, merchantUID: order.merchantUID)
            await expectFailure(.paymentDeclined) {
                try await shop.keycat.checkout.confirm(order.id, impUID: declined.impUID, by: buyer)
            }
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
        }
    }
}
