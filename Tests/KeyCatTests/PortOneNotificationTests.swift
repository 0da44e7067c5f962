import Foundation
import KeyCatData
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// PortOne v1's unsigned webhooks: read as hints, settled from the PG's own answer, throttled.
@Suite("PortOne v1 notifications")
struct PortOneNotificationTests {
    /// A receiver that takes v1 notifications, over the shop's checkout, with `burst` reads per
    /// order (and `overall` for all of them).
    private func receiver(_ shop: TestShop, burst: Int = 20, overall: Int = 1_000) throws -> PaymentWebhookReceiver {
        PaymentWebhookReceiver(
            verifier: WebhookVerifier(secrets: [], clock: shop.clock), checkout: shop.keycat.checkout,
            notifications: NotificationBudget(perOrder: try RateLimit(perSecond: 1, burst: burst),
                                              overall: try RateLimit(perSecond: 1, burst: overall), clock: shop.clock))
    }

    private func body(_ fields: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }

    @Test("a notification pays the order from the PG's answer; a forged one before it changes nothing")
    func hintSettlesFromThePG() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let receiver = try receiver(shop)
            let window = try #require(try shop.simulator.openWindow(merchantUID: order.merchantUID))
            // Forged: claims paid while the payment is only opened. The PG says ready: nothing moves.
            let forged = try await receiver.receive(headers: [:], body: body(
                ["imp_uid": window.impUID, "merchant_uid": order.merchantUID, "status": "paid"]))
            guard case .settled(.notPaid) = forged else { Issue.record("\(forged)"); return }
            #expect(try await shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
            // The real one, after the buyer paid, is not dropped as a duplicate of the forged one.
            let paid = try shop.pay(order)
            let real = try await receiver.receive(
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("imp_uid=\(paid.impUID)&merchant_uid=\(order.merchantUID)&status=paid".utf8))
            guard case .settled(.paid) = real else { Issue.record("\(real)"); return }
            #expect(try await shop.keycat.orders.order(order.id, by: buyer).status == .paid)
        }
    }

    @Test("only the merchant UID is used: another order's paid imp_uid pays nothing, and no order of ours costs no PG read")
    func onlyTheMerchantUIDCounts() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let other = try await shop.checkout(product, by: buyer)
            let paidOther = try shop.pay(other)
            let receiver = try receiver(shop, burst: 1)
            // The order itself has no payment at the PG: the answer is the PG's "not found",
            // which the webhook route acknowledges; the other order's payment is not applied.
            let crossed = await expectFailure(.paymentNotFound) {
                try await receiver.receive(headers: [:], body: body(
                    ["imp_uid": paidOther.impUID, "merchant_uid": order.merchantUID, "status": "paid"]))
            }
            #expect(crossed.map(WebhookHTTPHandler.status(for:)) == 200)
            #expect(try await shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
            // The budget (one read) is spent; notifications about no order of ours still answer.
            let reads = shop.simulator.totalRequestCount
            for index in 0..<5 {
                let stranger = try await receiver.receive(headers: [:], body: body(
                    ["imp_uid": paidOther.impUID, "merchant_uid": "not-ours-\(index)", "status": "paid"]))
                #expect(stranger == .unknownOrder)
            }
            #expect(shop.simulator.totalRequestCount == reads)
        }
    }

    @Test("a forged notification naming an old failed attempt settles from the latest attempt, not from it")
    func latestAttemptWins() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let declined = try shop.pay(order, card: .declined)
            let paid = try shop.pay(order)
            let outcome = try await receiver(shop).receive(headers: [:], body: body(
                ["imp_uid": declined.impUID, "merchant_uid": order.merchantUID, "status": "failed"]))
            guard case let .settled(.paid(settled)) = outcome else { Issue.record("\(outcome)"); return }
            #expect(settled.impUID == paid.impUID)
        }
    }

    @Test("a body that is no notification is a validation error, answered 400")
    func notANotification() async throws {
        try await TestShop.with { shop in
            let receiver = try receiver(shop)
            for bad in [Data("{}".utf8), Data("imp_uid=imp_1".utf8), Data("not json".utf8)] {
                let error = await expectFailure(.validation) { try await receiver.receive(headers: [:], body: bad) }
                #expect(error.map(WebhookHTTPHandler.status(for:)) == 400)
            }
        }
    }

    @Test("a notification or a signed webhook whose imp_uid is not shaped as the PG's is 400, before any PG read",
          arguments: ["imp_123/456", "imp_", "imp_../../payments", "imp_1%2F2", "IMP_123", "imp_" + String(repeating: "1", count: 33),
                      "imp_123 456", "imp_１２３"])
    func malformedImpUID(impUID: String) async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let order = try await shop.checkout(product, by: try await shop.user(.buyer))
            let reads = shop.simulator.totalRequestCount
            let hint = try body(["imp_uid": impUID, "merchant_uid": order.merchantUID, "status": "paid"])
            let unsigned = await expectFailure(.validation) { try await receiver(shop).receive(headers: [:], body: hint) }
            #expect(unsigned.map(WebhookHTTPHandler.status(for:)) == 400)
            let signed = await expectFailure(.validation) {
                try await shop.keycat.checkout.handleWebhook(id: "msg_1", impUID: impUID, merchantUID: order.merchantUID)
            }
            #expect(signed?.context["field"] == "imp_uid")
            #expect(shop.simulator.totalRequestCount == reads)
        }
    }

    @Test("past the budget a notification is refused with rateLimited (503, so the PG sends it again), until it refills")
    func throttled() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let paid = try shop.pay(order)
            let receiver = try receiver(shop, burst: 2)
            let hint = try body(["imp_uid": paid.impUID, "merchant_uid": order.merchantUID, "status": "paid"])
            _ = try await receiver.receive(headers: [:], body: hint)
            _ = try await receiver.receive(headers: [:], body: hint)
            let reads = shop.simulator.totalRequestCount
            let error = await expectFailure(.rateLimited) { try await receiver.receive(headers: [:], body: hint) }
            #expect(error.map(WebhookHTTPHandler.status(for:)) == 503)
            #expect(shop.simulator.totalRequestCount == reads)  // refused before reading the PG
            shop.clock.advance(by: 1)
            guard case .settled(.alreadyPaid) = try await receiver.receive(headers: [:], body: hint) else {
                Issue.record("the refilled budget should take the hint"); return
            }
        }
    }

    @Test("200 forged notifications about one order do not stop a real one about another order from being handled")
    func forgeriesAboutOneOrderSpendOnlyItsBudget() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 5)
            let (forger, buyer) = (try await shop.user(.buyer), try await shop.user(.buyer))
            let target = try await shop.checkout(product, by: forger)
            let order = try await shop.checkout(product, by: buyer)
            // The budgets KeyCat runs with.
            let receiver = PaymentWebhookReceiver(
                verifier: WebhookVerifier(secrets: [], clock: shop.clock), checkout: shop.keycat.checkout,
                notifications: NotificationBudget(perOrder: PaymentWebhookReceiver.notificationLimitPerOrder,
                                                  overall: PaymentWebhookReceiver.notificationLimit, clock: shop.clock))
            let forged = try body(["imp_uid": "imp_000000000000", "merchant_uid": target.merchantUID, "status": "paid"])
            var refused = 0
            for _ in 0..<200 {
                do {
                    _ = try await receiver.receive(headers: [:], body: forged)
                } catch let error as KeyCatError {
                    if error.code == .rateLimited { refused += 1 } else { #expect(error.code == .paymentNotFound, "\(error)") }
                }
            }
            #expect(refused == 200 - PaymentWebhookReceiver.notificationBurstPerOrder)
            let paid = try shop.pay(order)
            let real = try await receiver.receive(headers: [:], body: body(
                ["imp_uid": paid.impUID, "merchant_uid": order.merchantUID, "status": "paid"]))
            guard case .settled(.paid) = real else { Issue.record("\(real)"); return }
            #expect(try await shop.keycat.orders.order(order.id, by: buyer).status == .paid)
        }
    }

    @Test("past the overall budget, notifications about any order are refused; an order's own refusals cost the others nothing")
    func overallBudget() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product(stock: 10)
            var orders: [Order] = []
            for _ in 0..<4 { orders.append(try await shop.checkout(product, by: try await shop.user(.buyer))) }
            let receiver = try receiver(shop, burst: 1, overall: 3)
            func notify(_ order: Order) async -> KeyCatError.Code? {
                do {
                    _ = try await receiver.receive(headers: [:], body: try body(
                        ["imp_uid": "imp_000000000000", "merchant_uid": order.merchantUID, "status": "paid"]))
                    return nil
                } catch let error as KeyCatError { return error.code } catch { return .internalError }
            }
            // The first order's second and third notifications are refused by its own budget only.
            #expect(await notify(orders[0]) == .paymentNotFound)
            #expect(await notify(orders[0]) == .rateLimited)
            #expect(await notify(orders[0]) == .rateLimited)
            #expect(await notify(orders[1]) == .paymentNotFound)
            #expect(await notify(orders[2]) == .paymentNotFound)
            // Three reads spent: the overall cap refuses the fourth order's first notification.
            #expect(await notify(orders[3]) == .rateLimited)
        }
    }

    @Test("a PortOne gateway with signed webhooks still needs a secret; with v1 notifications it needs none")
    func configuration() async throws {
        try await withTemporaryDirectory { directory async throws in
            var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("keycat.db").path)
            configuration.paymentGateway = .portOne(baseURL: URL(string: "http://127.0.0.1:1")!, apiKey: "k", apiSecret: "s",
                                                    webhooks: .signed(secrets: []))
            await expectFailure(.validation) { try await KeyCat.open(configuration) }
            configuration.paymentGateway = .portOne(baseURL: URL(string: "http://127.0.0.1:1")!, apiKey: "k", apiSecret: "s",
                                                    webhooks: .portOneNotifications)
            let keycat = try await KeyCat.open(configuration)
            defer { keycat.close() }
            #expect(keycat.webhooks.notifications != nil)
            #expect(keycat.paymentSimulator == nil)
        }
    }
}
