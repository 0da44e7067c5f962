import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Synchronization
import Testing

/// A gateway that forwards to the simulator but skips pre-registration, as a merchant that
/// forgot `prepare` would: the PG then accepts any amount, and only confirm's check is left.
struct UnpreparedGateway: PaymentGateway {
    let inner: any PaymentGateway
    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {}
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(impUID: impUID) }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(merchantUID: merchantUID) }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage { try await inner.payments(query) }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment { try await inner.cancel(cancellation) }
}

/// Every case runs on both stores (``TestStore``). The idempotency store's own lease rules are
/// `IdempotencyLeaseTests`, on all three stores.
@Suite("Payment safety: forged amounts, idempotency keys, refunds")
struct PaymentSafetyTests {
    @Test("a forged amount is cancelled at the PG, the order fails, the stock comes back and it is audited", arguments: TestStore.allCases)
    func forgedAmount(_ store: TestStore) async throws {
        try await TestShop.with(store, gateway: { UnpreparedGateway(inner: $0) }) { shop, simulator in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            await #expect(try shop.stock(of: product.id) == 2)
            let forged = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number, amount: 100)
            await expectFailure(.paymentAmountForged) {
                try await shop.keycat.checkout.confirm(order.id, impUID: forged.impUID, by: buyer)
            }
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .failed)
            await #expect(try shop.stock(of: product.id) == 3)
            #expect(simulator.payment(impUID: forged.impUID)?.status == .cancelled)
            await #expect(try shop.keycat.auditLog.recent(limit: 5).contains { $0.action == "order.fail" && $0.target == "order:\(order.id)" })
            // The PG's webhook applies the next forged payment first; the buyer's confirm that
            // follows re-reads it cancelled and still hears that the amount was forged.
            let next = try await shop.checkout(product, by: buyer)
            let again = try simulator.pay(merchantUID: next.merchantUID, cardNumber: PGTestCard.success.number, amount: 100)
            let delivered = try await shop.keycat.checkout.handleWebhook(id: "wh_forged", impUID: again.impUID, merchantUID: next.merchantUID)
            guard case .settled(.forged) = delivered else { Issue.record("the webhook did \(delivered)"); return }
            let refusal = await expectFailure(.paymentAmountForged) {
                try await shop.keycat.checkout.confirm(next.id, impUID: again.impUID, by: buyer)
            }
            #expect(refusal?.context["paid"] == "100")
            await #expect(try shop.stock(of: product.id) == 3)
            try await shop.expectHealthy()
        }
    }

    @Test("a replayed idempotency key returns the first order and takes the stock once", arguments: TestStore.allCases)
    func replayedKey(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let first = try await shop.checkout(product, quantity: 2, by: buyer, key: "checkout-1")
            let again = try await shop.checkout(product, quantity: 2, by: buyer, key: "checkout-1")
            #expect(again == first)
            await #expect(try shop.stock(of: product.id) == 3)
            let payment = try shop.pay(first)
            let confirmed = try await shop.keycat.checkout.confirm(first.id, impUID: payment.impUID, idempotencyKey: "confirm-1", by: buyer)
            #expect(try await shop.keycat.checkout.confirm(first.id, impUID: payment.impUID, idempotencyKey: "confirm-1", by: buyer) == confirmed)
        }
    }

    @Test("the same idempotency key with other input is a conflict", arguments: TestStore.allCases)
    func keyReusedWithOtherInput(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            _ = try await shop.checkout(product, quantity: 1, by: buyer, key: "k")
            await expectFailure(.idempotencyKeyReused) { try await shop.checkout(product, quantity: 2, by: buyer, key: "k") }
            await #expect(try shop.stock(of: product.id) == 4)
            // The same items to another address is another checkout, not the first one replayed.
            let home = DeliveryAddress(recipient: "김하늘", phone: "010-1234-5678", postcode: "06236",
                                       roadAddress: "서울 강남구 테헤란로 123", detail: "4층", request: "")
            var office = home
            office.roadAddress = "서울 마포구 월드컵북로 396"
            let first = try await shop.keycat.checkout.checkout(CheckoutRequest(
                .items([CheckoutItem(productID: product.id, quantity: 1)]), destination: .inline(home), idempotencyKey: "addr"), by: buyer)
            #expect(first.shippingAddress == home)
            await expectFailure(.idempotencyKeyReused) {
                try await shop.keycat.checkout.checkout(CheckoutRequest(
                    .items([CheckoutItem(productID: product.id, quantity: 1)]), destination: .inline(office), idempotencyKey: "addr"), by: buyer)
            }
            await #expect(try shop.keycat.checkout.checkout(CheckoutRequest(
                .items([CheckoutItem(productID: product.id, quantity: 1)]), destination: .inline(home), idempotencyKey: "addr"), by: buyer).id
                == first.id)
            await #expect(try shop.stock(of: product.id) == 3)
        }
    }

    @Test("a cart's checkout retried with its key replays its order, even once the order is paid and the cart empty or changed",
          arguments: TestStore.allCases)
    func cartCheckoutReplayed(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let other = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            try await shop.keycat.cart.add(product.id, quantity: 2, by: buyer)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart, idempotencyKey: "cart-1"), by: buyer)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            await #expect(try shop.keycat.cart.cart(of: buyer).lines.isEmpty)
            // The answer was lost; the client sends the same request again.
            let replayed = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart, idempotencyKey: "cart-1"), by: buyer)
            #expect(replayed.id == order.id && replayed.lines == order.lines)
            // The cart holds something else now: the key is still the first request's.
            try await shop.keycat.cart.add(other.id, quantity: 1, by: buyer)
            #expect(try await shop.keycat.checkout.checkout(CheckoutRequest(.cart, idempotencyKey: "cart-1"), by: buyer).id == order.id)
            await #expect(try shop.stock(of: product.id) == 3)
            await #expect(try shop.stock(of: other.id) == 5)
            #expect(paid.status == .paid)
            // Another address under the same key is another request, refused.
            await expectFailure(.idempotencyKeyReused) {
                try await shop.keycat.checkout.checkout(CheckoutRequest(.cart, destination: .inline(DeliveryAddress(
                    recipient: "김하늘", phone: "010-1234-5678", postcode: "06236", roadAddress: "서울 강남구 테헤란로 123",
                    detail: "4층", request: "")), idempotencyKey: "cart-1"), by: buyer)
            }
            // A new key checks the cart out as it is now.
            let next = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart, idempotencyKey: "cart-2"), by: buyer)
            #expect(next.lines.map(\.productID) == [other.id])
        }
    }

    @Test("a refund retried with its key after a lost answer returns the settled order and never refunds twice", arguments: TestStore.allCases)
    func refundRetryAfterLostAnswer(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let request = RefundRequest(amount: Money(won: 4_000), reason: "dent", idempotencyKey: "refund-1")
            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)
            let lost = await expectFailure(.gatewayTimeout) { try await shop.keycat.orders.refund(order.id, request, by: shop.operatorConsole) }
            #expect(lost?.context["outcome"] == "unknown")
            #expect(lost?.message.contains("the outcome is unknown") == true)
            // Just begun, it may still be in its request's hands: reconciliation leaves it alone.
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 0)
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 1)
            shop.passRefundWindow()
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            // The client retries with the same key once the refund has settled: no second refund.
            let retried = try await shop.keycat.orders.refund(order.id, request, by: shop.operatorConsole)
            #expect(retried.refundedAmount == Money(won: 4_000))
            let after = try await shop.keycat.orders.order(order.id, by: buyer)
            #expect(after.refundedAmount == Money(won: 4_000))
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("confirms of a paid order claim no key; confirms that would ask the PG are limited per buyer", arguments: TestStore.allCases)
    func confirmFlood(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let keys = try await shop.integer("SELECT count(*) FROM idempotency_keys")
            // The app retrying with a fresh key each time: the paid order, and nothing written.
            for attempt in 1...40 {
                let again = try await shop.keycat.checkout.confirm(order.id, impUID: order.impUID!, idempotencyKey: "flood-\(attempt)", by: buyer)
                #expect(again.status == .paid)
            }
            #expect(try await shop.integer("SELECT count(*) FROM idempotency_keys") == keys)
            // Another order's payment named for this one: each such confirm asks the PG, so a loop of
            // them runs out of tokens (the confirm that paid the order took the first of 30), and
            // the PG is asked no more.
            let other = try await shop.checkout(product, by: buyer)
            let asked = shop.simulator.requestCount(.payment)
            for _ in 1...29 {
                await expectFailure(.validation) { try await shop.keycat.checkout.confirm(other.id, impUID: order.impUID!, by: buyer) }
            }
            let limited = await expectFailure(.rateLimited) { try await shop.keycat.checkout.confirm(other.id, impUID: order.impUID!, by: buyer) }
            #expect(limited?.context["retry_after"] == "1")
            #expect(shop.simulator.requestCount(.payment) - asked == 29)
            // Another buyer is not held back by this one.
            let second = try await shop.user(.buyer)
            _ = try await shop.paidOrder(product, by: second)
            shop.clock.advance(by: 1)
            await expectFailure(.validation) { try await shop.keycat.checkout.confirm(other.id, impUID: order.impUID!, by: buyer) }
        }
    }

    @Test("reconciliation leaves a refund still on its way to the request that began it: one send, and the refund done",
          arguments: TestStore.allCases)
    func refundInFlightLeftAlone(_ store: TestStore) async throws {
        var pausing: PausingGateway?
        try await TestShop.with(store, gateway: { client in
            pausing = PausingGateway(inner: client)
            return pausing!
        }) { shop, simulator in
            let gateway = try #require(pausing)
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let unpaid = try await shop.checkout(product, by: buyer)
            let payment = try simulator.pay(merchantUID: unpaid.merchantUID, cardNumber: PGTestCard.success.number)
            let order = try await shop.keycat.checkout.confirm(unpaid.id, impUID: payment.impUID, by: buyer)
            // Reconciliation runs while the refund, begun and pending, is about to be sent. Had it
            // sent the refund too, the request's own send could hear the PG refuse what
            // reconciliation's had just done, and record the refund failed.
            let meanwhile = Mutex<ReconcileReport?>(nil)
            gateway.beforeCancel.withLock { $0 = { @Sendable in
                let report = try await shop.keycat.checkout.reconcile()
                meanwhile.withLock { $0 = report }
            } }
            let refunded = try await shop.keycat.orders.refund(
                order.id, RefundRequest(amount: Money(won: 4_000), reason: "dent"), by: shop.operatorConsole)
            #expect(meanwhile.withLock { $0?.refundsSettled } == 0)
            #expect(refunded.refundedAmount == Money(won: 4_000))
            #expect(simulator.cancellations(impUID: order.impUID!).map(\.amount) == [4_000])
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.done])
            try await shop.expectHealthy()
        }
    }

    @Test("a pending refund sent again into a refusal, or answered with what cannot be read, stays pending: the PG may hold it",
          arguments: TestStore.allCases)
    func refundResentIntoRefusal(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let request = RefundRequest(amount: Money(won: 4_000), reason: "dent", idempotencyKey: "refund-1")
            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)
            await expectFailure(.gatewayTimeout) { try await shop.keycat.orders.refund(order.id, request, by: shop.operatorConsole) }
            // The PG refunded; the next sends are refused (credentials rotated, say). Neither the
            // retry nor reconciliation may call the refund failed.
            // (The client asks for a new token after a 401 and sends once more: two refusals a send.)
            shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)
            let retried = await expectFailure(.gatewayAuthenticationFailed) {
                try await shop.keycat.orders.refund(order.id, request, by: shop.operatorConsole)
            }
            #expect(retried?.context["outcome"] == "unknown")
            shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)
            shop.passRefundWindow()
            let refused = try await shop.keycat.checkout.reconcile()
            #expect(refused.refundsSettled == 0 && refused.unresolved == 1)
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.pending])
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).refundedAmount == Money(won: 4_000))

            // An answer that cannot be read says nothing either: the refund waits, then lands once.
            let second = RefundRequest(amount: Money(won: 1_000), reason: "scratch", idempotencyKey: "refund-2")
            shop.simulator.injectFault(.malformedBody, on: .cancel)
            let unreadable = await expectFailure(.invalidGatewayResponse) {
                try await shop.keycat.orders.refund(order.id, second, by: shop.operatorConsole)
            }
            #expect(unreadable?.context["outcome"] == "unknown")
            shop.passRefundWindow()
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).refundedAmount == Money(won: 5_000))
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 2)
            try await shop.expectHealthy()
        }
    }

    @Test("a refund whose first send's answer was lost and whose resend is refused outright is settled by the payment's balance",
          arguments: TestStore.allCases)
    func lostAnswerThenRefusal(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let impUID = try #require(order.impUID)

            // The PG refunded, the answer was lost, and the resend was refused (403): the balance
            // shows the refund landed, so it is done, once.
            shop.simulator.injectFault(.lostAnswer, on: .cancel)
            shop.simulator.injectFault(.error(.forbidden), on: .cancel)
            let landed = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 4_000), reason: "dent"),
                                                             by: shop.operatorConsole)
            #expect(landed.refundedAmount == Money(won: 4_000))
            #expect(shop.simulator.cancellations(impUID: impUID).count == 1)

            // A 502 (nothing done), then a refusal: the balance has not moved, so it failed.
            shop.simulator.injectFault(.error(.pgProvider), on: .cancel)
            shop.simulator.injectFault(.error(.forbidden), on: .cancel)
            let refused = await expectFailure(.gatewayForbidden) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "scratch"), by: shop.operatorConsole)
            }
            #expect(refused?.context["outcome"] == nil, "\(String(describing: refused))")
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.done, .failed])
            // The refusal is on the record, under who asked; the row names them too.
            let failure = try #require(try await shop.keycat.auditLog.recent(limit: 20).first { $0.action == "refund.failed" })
            #expect(failure.actor == shop.operatorConsole.auditActor && failure.target == "order:\(order.id)", "\(failure)")
            #expect(failure.detail.contains("₩1,000") && failure.detail.contains("gateway_forbidden"), "\(failure)")
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).allSatisfy {
                $0.requestedBy == shop.operatorConsole.auditActor
            })

            // The answer lost, the resend refused and the payment unreadable: nobody can tell, so it
            // stays pending, and reconciliation settles it.
            shop.simulator.injectFault(.lostAnswer, on: .cancel)
            shop.simulator.injectFault(.error(.forbidden), on: .cancel)
            shop.simulator.injectFault(.error(.forbidden), on: .payment)
            let unknown = await expectFailure(.gatewayForbidden) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 2_000), reason: "rattle"), by: shop.operatorConsole)
            }
            #expect(unknown?.context["outcome"] == "unknown", "\(String(describing: unknown))")
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.done, .failed, .pending])
            shop.passRefundWindow()
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).refundedAmount == Money(won: 6_000))
            let completed = try #require(try await shop.keycat.auditLog.recent(limit: 20).first { $0.action == "order.refund" })
            #expect(completed.actor == "system" && completed.detail.hasSuffix("asked by \(shop.operatorConsole.auditActor)"),
                    "\(completed)")
            #expect(shop.simulator.cancellations(impUID: impUID).count == 2)
            try await shop.expectHealthy()
        }
    }

    @Test("voiding orphans never cancels the payment that pays its order, though their amounts disagree: it is reported",
          arguments: TestStore.allCases)
    func orphanThatPaysItsOrder(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let order = try await shop.paidOrder(product, by: try await shop.user(.buyer))
            // The order's row edited by hand: its amount no longer the payment's.
            try await shop.execute("UPDATE orders SET amount = amount + 1 WHERE id = \(order.id)")
            let report = try await shop.keycat.checkout.reconcile(gateway: GatewayReconciliation(voidOrphans: true, actor: "cli:tester"))
            #expect(report.orphans == 1 && report.orphansVoided == 0, "\(report)")
            #expect(report.orphanPayments.map(\.reason) == [.amountDiffers])
            #expect(shop.simulator.payment(impUID: try #require(order.impUID))?.status == .paid)
            await #expect(try shop.keycat.orders.order(order.id, by: shop.operatorConsole).status == .paid)
        }
    }

    @Test("checkout items are bounded before they are summed", arguments: TestStore.allCases, [
        [Int.max, 1], [99, 1], [0], [-5], [100],
    ])
    func checkoutQuantities(_ store: TestStore, quantities: [Int]) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 500)
            let buyer = try await shop.user(.buyer)
            let items = quantities.map { CheckoutItem(productID: product.id, quantity: $0) }
            await expectFailure(.validation) {
                try await shop.keycat.checkout.checkout(CheckoutRequest(.items(items)), by: buyer)
            }
            await #expect(try shop.stock(of: product.id) == 500)
        }
    }

    @Test("refunds: partial, above the balance, stale checksum, then the rest with restock", arguments: TestStore.allCases)
    func refunds(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, quantity: 2, by: buyer)  // 20,000 + 3,000
            let admin = shop.operatorConsole
            let partial = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 3_000), reason: "late"), by: admin)
            #expect(partial.status == .partiallyRefunded && partial.refundedAmount == Money(won: 3_000))
            await expectFailure(.cancelAmountExceedsCancellable) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 20_001), reason: "too much"), by: admin)
            }
            await expectFailure(.cancellableAmountInconsistent) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "stale",
                                                                            expectedBalance: Money(won: 23_000)), by: admin)
            }
            let full = try await shop.keycat.orders.refund(order.id, RefundRequest(reason: "defect", restock: true), by: admin)
            #expect(full.status == .refunded && full.refundedAmount == order.amount)
            await #expect(try shop.stock(of: product.id) == 5)
            #expect(shop.simulator.payment(impUID: order.impUID!)?.status == .cancelled)
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1), reason: "again"), by: admin)
            }
            try await shop.expectHealthy()
        }
    }

    @Test("a refund whose checksum the PG no longer agrees with fails and changes nothing", arguments: TestStore.allCases)
    func staleChecksumAtThePG(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            // Someone refunds 1,000 at the PG directly, behind KeyCat's back.
            let client = PGGatewayClient(
                transport: shop.simulator.transport,
                configuration: PGClientConfiguration(apiKey: shop.simulator.credentials.key, apiSecret: shop.simulator.credentials.secret),
                clock: shop.clock, logSink: DiscardingLogSink())
            _ = try await client.cancel(GatewayCancellation(target: .impUID(order.impUID!), amount: Money(won: 1_000),
                                                            checksum: order.amount, reason: "out of band"))
            await expectFailure(.cancellableAmountInconsistent) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 2_000), reason: "x"), by: shop.operatorConsole)
            }
            let after = try await shop.keycat.orders.order(order.id, by: buyer)
            #expect(after.status == .paid && after.refundedAmount == .zero)
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.failed])
            try await shop.expectHealthy()
        }
    }

    @Test("a refund whose PG answer is lost stays pending, then reconciliation repeats it once with the same key", arguments: TestStore.allCases)
    func lostRefundAnswer(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)  // every attempt the client makes
            await expectFailure(.gatewayTimeout) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 4_000), reason: "dent"), by: shop.operatorConsole)
            }
            await #expect(try shop.keycat.orders.refunds(of: order.id, by: buyer).map(\.status) == [.pending])
            await expectFailure(.requestInProgress) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "more"), by: shop.operatorConsole)
            }
            shop.passRefundWindow()
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            let after = try await shop.keycat.orders.order(order.id, by: buyer)
            #expect(after.status == .partiallyRefunded && after.refundedAmount == Money(won: 4_000))
            #expect(shop.simulator.cancellations(impUID: order.impUID!).count == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a void whose PG answer was lost is finished by reconciliation: the repeat is the same request under the same key", arguments: TestStore.allCases)
    func lostVoidAnswer(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: 21 * 60)  // past the reservation and its grace
            #expect(try await shop.keycat.checkout.reconcile().expired == 1)
            let payment = try shop.pay(order)  // the buyer pays after the reservation ran out
            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)  // every attempt the client makes
            await expectFailure(.illegalTransition) { try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer) }
            await #expect(try shop.keycat.orders.payments(of: order.id, by: buyer).map(\.status) == [.voiding])
            #expect(try await shop.keycat.checkout.reconcile().paymentsVoided == 1)
            await #expect(try shop.keycat.orders.payments(of: order.id, by: buyer).map(\.status) == [.voided])
            #expect(shop.simulator.cancellations(impUID: payment.impUID).count == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a buyer cancels a paid order before shipping: refunded in full, stock back", arguments: TestStore.allCases)
    func buyerCancel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 4)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, quantity: 2, by: buyer)
            await #expect(try shop.stock(of: product.id) == 2)
            let cancelled = try await shop.keycat.orders.cancel(order.id, reason: "changed my mind", by: buyer)
            #expect(cancelled.status == .cancelled && cancelled.refundedAmount == order.amount)
            await #expect(try shop.stock(of: product.id) == 4)
            let shipped = try await shop.paidOrder(product, by: buyer)
            _ = try await shop.keycat.orders.ship(shipped.id, carrier: "CJ", trackingNumber: "123456789012", by: shop.operatorConsole)
            await expectFailure(.alreadyShipped) { try await shop.keycat.orders.cancel(shipped.id, reason: "too late", by: buyer) }
            let stranger = try await shop.user(.buyer)
            await expectFailure(.notFound) { try await shop.keycat.orders.cancel(shipped.id, reason: "not mine", by: stranger) }
            try await shop.expectHealthy()
        }
    }
}
