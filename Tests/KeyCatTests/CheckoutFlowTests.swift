import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

@Suite("Checkout, confirm and webhooks")
struct CheckoutFlowTests {
    @Test("checkout takes the stock, confirm marks the order paid and empties the bought cart lines", arguments: TestStore.allCases)
    func checkoutAndConfirm(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 50_000)
            let buyer = try await shop.user(.buyer)
            try await shop.keycat.cart.add(product.id, quantity: 2, by: buyer)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.cart), by: buyer)
            #expect(order.status == .awaitingPayment)
            #expect(order.amount == Money(won: 2 * 50_000 + 3_000))
            #expect(order.lines.first?.title == product.title)
            #expect(order.merchantUID.count <= 40)
            await #expect(try shop.stock(of: product.id) == 3)
            let payment = try shop.pay(order)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            #expect(paid.status == .paid)
            #expect(paid.impUID == payment.impUID)
            await #expect(try shop.keycat.cart.cart(of: buyer).lines.isEmpty)
            await #expect(try shop.keycat.orders.payments(by: buyer).items.map(\.impUID) == [payment.impUID])
            // Confirming again answers with the paid order.
            #expect(try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer).status == .paid)
            try await shop.expectHealthy()
        }
    }

    @Test("out of stock is a conflict naming the product and what is left", arguments: TestStore.allCases)
    func outOfStock(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 2)
            let buyer = try await shop.user(.buyer)
            let error = await expectFailure(.outOfStock) { try await shop.checkout(product, quantity: 3, by: buyer) }
            #expect(error?.context["product_id"] == "\(product.id)")
            #expect(error?.context["available"] == "2")
            await #expect(try shop.stock(of: product.id) == 2)
        }
    }

    @Test("a declined card leaves the order awaiting payment, and the buyer can pay again", arguments: TestStore.allCases)
    func declinedThenRetry(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let declined = try shop.pay(order, card: .insufficientFunds)
            await expectFailure(.paymentDeclined) { try await shop.keycat.checkout.confirm(order.id, impUID: declined.impUID, by: buyer) }
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
            let retry = try shop.simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number,
                                               amount: order.amount.won)
            #expect(try await shop.keycat.checkout.confirm(order.id, impUID: retry.impUID, by: buyer).status == .paid)
        }
    }

    @Test("webhooks are verified, deduplicated by id, and the payment is re-read rather than trusted", arguments: TestStore.allCases)
    func webhooks(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let receiver = InProcessWebhookReceiver(shop.keycat)
            shop.simulator.registerWebhookReceiver(receiver.transport, path: "/webhooks/pg")
            shop.simulator.configureFaults(PGFaultConfiguration(webhookDuplicateRate: 1, webhookReordering: true))
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            try shop.pay(order)
            #expect(await shop.simulator.deliverPendingWebhooks() == 2)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .paid)
            // A forged body claiming "paid" for an unpaid order changes nothing: the PG is asked.
            let other = try await shop.checkout(product, by: buyer)
            let body = Data(#"{"imp_uid":"imp_forged","merchant_uid":"\#(other.merchantUID)","status":"paid"}"#.utf8)
            await expectFailure(.validation) {
                try await shop.keycat.webhooks.receive(headers: ["webhook-id": "msg_1", "webhook-timestamp": "0",
                                                                 "webhook-signature": "v1,AAAA"], body: body)
            }
            await #expect(try shop.keycat.orders.order(other.id, by: buyer).status == .awaitingPayment)
            try await shop.expectHealthy()
        }
    }

    @Test("a webhook whose payment cannot be re-read is refused, stays queued, and is applied on redelivery", arguments: TestStore.allCases)
    func webhookRedeliveredAfterFailure(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            shop.simulator.registerWebhookReceiver(InProcessWebhookReceiver(shop.keycat).transport, path: "/webhooks/pg")
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            try shop.pay(order)
            shop.simulator.injectFault(.error(.serviceUnavailable), on: .payment, times: 4)  // every attempt of one read
            #expect(await shop.simulator.deliverPendingWebhooks() == 0)
            #expect(shop.simulator.pendingWebhookCount == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
            #expect(await shop.simulator.deliverPendingWebhooks() == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .paid)
        }
    }

    @Test("a signed webhook outside the five-minute tolerance is refused", arguments: TestStore.allCases)
    func staleWebhook(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let payment = try shop.pay(order)
            let body = Data(#"{"imp_uid":"\#(payment.impUID)","merchant_uid":"\#(order.merchantUID)","status":"paid"}"#.utf8)
            let timestamp = Int64(shop.clock.now().timeIntervalSince1970) - 301
            let signature = StandardWebhookSignature.sign(id: "msg_old", timestamp: timestamp, body: body,
                                                          secret: shop.simulator.webhookSecret)
            let error = await expectFailure(.validation) {
                try await shop.keycat.webhooks.receive(
                    headers: ["webhook-id": "msg_old", "webhook-timestamp": String(timestamp), "webhook-signature": signature],
                    body: body)
            }
            #expect(error?.context["field"] == "webhook")
            #expect(error?.context["reason"] == nil, "the answer does not say which check failed")
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
        }
    }
}

/// Delivers the simulator's webhooks to a KeyCat in process.
struct InProcessWebhookReceiver {
    let transport: InProcessTransport

    init(_ keycat: KeyCat) { transport = InProcessTransport(WebhookHTTPHandler(keycat.webhooks)) }
}
