import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization

extension DemoStory {
    func fillCartAndCheckout() throws {
        _ = try keycat.cart.add(product.id, quantity: 2, by: buyer)
        // A second line from another seller: the cheapest keycap set in stock.
        let keycaps = try keycat.catalog.list(ProductListRequest(
            filter: ProductFilter(category: .keycap), sort: .priceAscending, limit: try PageLimit(10)))
        if let keycap = keycaps.items.first(where: { $0.stock > 0 }) {
            _ = try keycat.cart.add(keycap.id, quantity: 1, by: buyer)
        }
        let cart = try keycat.cart.cart(of: buyer)
        let stockBefore = try keycat.catalog.product(product.id).stock
        let (keycat, buyer) = (keycat, buyer!)
        order = try waitFor { try await keycat.checkout.checkout(CheckoutRequest(.cart, idempotencyKey: "demo-checkout-1"), by: buyer) }
        narrator.step("She fills her cart and checks out", [
            cart.lines.map { "  - \($0.quantity) × \($0.title): \($0.lineTotal) + delivery \($0.deliveryFee)" }.joined(separator: "\n"),
            "Order \(order.id) (\(order.merchantUID)) comes to \(order.amount): items \(order.itemsTotal) + delivery \(order.deliveryTotal), computed by the server, never taken from the app.",
            "Stock is taken now (\(stockBefore) → \(try self.keycat.catalog.product(product.id).stock)) and held for 15 minutes; the amount is pre-registered with the PG, so a forged payment is caught.",
        ])
    }

    func pay() throws {
        guard let simulator = keycat.paymentSimulator else { return }
        let (keycat, buyer, order) = (keycat, buyer!, order!)
        let declined = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.declined.number)
        var refusal = "no error"
        do {
            _ = try waitFor { try await keycat.checkout.confirm(order.id, impUID: declined.impUID, by: buyer) }
        } catch let error as KeyCatError {
            refusal = "\(error.code.rawValue): \(error.message)"
        }
        narrator.step("Her first card is declined", [
            "The PG window (simulator test card \(PGTestCard.declined.number)) answers: \(declined.status.rawValue), \(declined.failureReason ?? "").",
            "Her app confirms anyway; KeyCat re-reads the payment from the PG and refuses: \(refusal).",
            "Order \(order.id) is still \(try keycat.orders.order(order.id, by: buyer).status.rawValue): she may try again until the reservation expires.",
        ])
        let paid = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number, amount: order.amount.won)
        self.order = try waitFor { try await keycat.checkout.confirm(order.id, impUID: paid.impUID, by: buyer) }
        narrator.step("The second card pays, and the payment is confirmed", [
            "The PG charges \(Money(won: paid.amount)) to the card ending \(paid.cardLast4 ?? "????") (imp_uid \(paid.impUID)).",
            "KeyCat re-reads it and checks merchant_uid, amount and status before moving order \(order.id) to \(self.order.status.rawValue).",
        ])
    }

    func deliverWebhooks() throws {
        guard let simulator = keycat.paymentSimulator else { return }
        let receiver = RecordingWebhookReceiver(keycat.webhooks)
        simulator.registerWebhookReceiver(InProcessTransport(receiver), path: "/webhooks/pg")
        // Every webhook is sent twice, as a PG retrying after a lost acknowledgement would.
        simulator.configureFaults(PGFaultConfiguration(webhookDuplicateRate: 1))
        let delivered = try waitFor { await simulator.deliverPendingWebhooks() }
        simulator.configureFaults(.none)
        let outcomes = receiver.outcomes.withLock { $0 }
        narrator.step("The PG's webhooks arrive, each one twice", [
            outcomes.map { "  - webhook \($0.id.prefix(12))…: \($0.outcome)" }.joined(separator: "\n"),
            "\(delivered) deliveries, each verified (HMAC signature, five-minute window). A repeated webhook id is ignored, and a first delivery only re-reads the PG: the order was paid once, by the confirm.",
        ])
    }

    func review() throws {
        let review = try keycat.reviews.write(
            ReviewForm(rating: 5, content: "55g 택타일, 윤활 상태 아주 좋아요. 조용하고 구분감이 분명합니다."), of: product.id, by: buyer)
        let rated = try keycat.catalog.product(product.id)
        narrator.step("She reviews the switches", [
            "Review \(review.id): \(review.rating) stars. Only a buyer whose order of the product was delivered may review it, once.",
            "The product's rating is now \(rated.averageRating.map { String(format: "%.1f", $0) } ?? "-") from \(rated.ratingCount) review, kept on the product in the same transaction.",
        ])
    }

    func shipAndDeliver() throws {
        let shipped = try keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: "5531-2026-1123", by: operatorConsole)
        order = try keycat.orders.deliver(order.id, by: operatorConsole)
        narrator.step("The operator ships the order, and it is delivered", [
            "Order \(shipped.id) was \(shipped.status.rawValue) with CJ대한통운, tracking \(shipped.trackingNumber ?? "-"), and is now \(order.status.rawValue). Every move follows the order state machine.",
        ])
    }

    func refund() throws {
        let (keycat, id, console) = (keycat, order.id, operatorConsole)
        let request = RefundRequest(amount: Money(won: 5_000), reason: "two switches arrived with bent pins")
        order = try waitFor { try await keycat.orders.refund(id, request, by: console) }
        narrator.step("Two switches arrive bent: a partial refund", [
            "\(request.amount!) is refunded at the PG, sending the refundable balance as a checksum so two refunds can never both spend it.",
            "Order \(order.id) is \(order.status.rawValue): \(order.refundedAmount) refunded of \(order.amount).",
        ])
    }

    func statistics() throws {
        let report = try keycat.statistics.report(days: 7, top: 3, by: operatorConsole)
        narrator.step("The operator reads the statistics (last 7 days, Seoul calendar days)",
                       [StatsPresenter.text(report).trimmingCharacters(in: .newlines)])
    }

    func check() throws {
        let health = try keycat.checkHealth()
        narrator.step("db check: the database is \(health.isHealthy ? "healthy" : "NOT healthy")", [
            "integrity: \(health.integrityProblems.isEmpty ? "ok" : health.integrityProblems.joined(separator: "; "))",
            "foreign keys: \(health.foreignKeyProblems.isEmpty ? "ok" : health.foreignKeyProblems.joined(separator: "; "))",
            "invariants (stock, counters, payments): \(health.invariantProblems.isEmpty ? "ok" : health.invariantProblems.joined(separator: "; "))",
        ])
        if !health.isHealthy { throw KeyCatError(.internalError, "the demo left an unhealthy database") }
    }
}

/// Receives the simulator's webhooks like a server would, and remembers what each did so the
/// demo can show the duplicate being ignored.
final class RecordingWebhookReceiver: HTTPHandler {
    struct Delivery: Sendable {
        var id: String
        var outcome: String
    }

    let receiver: PaymentWebhookReceiver
    let outcomes = Mutex<[Delivery]>([])

    init(_ receiver: PaymentWebhookReceiver) { self.receiver = receiver }

    func handle(_ request: HTTPRequest, timeout: Duration) async throws(HTTPTransportError) -> HTTPResponse {
        let id = request.headers["webhook-id"] ?? "?"
        do {
            let outcome = try await receiver.receive(headers: request.headers, body: request.body)
            outcomes.withLock { $0.append(Delivery(id: id, outcome: Self.describe(outcome))) }
            return HTTPResponse(status: 200, headers: [:], body: Data())
        } catch {
            outcomes.withLock { $0.append(Delivery(id: id, outcome: "refused: \(error.message)")) }
            return HTTPResponse(status: 400, headers: [:], body: Data())
        }
    }

    static func describe(_ outcome: WebhookOutcome) -> String {
        switch outcome {
        case .duplicate: "a duplicate: ignored, nothing done"
        case .unknownOrder: "names no order of ours: acknowledged and ignored"
        case let .settled(.paid(order)): "applied: order \(order.id) paid"
        case let .settled(.alreadyPaid(order)): "re-read the PG: order \(order.id) was already paid by this payment"
        case let .settled(.notPaid(order, reason)): "re-read the PG: that attempt was not paid (\(reason)); order \(order.id) unchanged"
        case let .settled(.forged(order, paid)): "forged amount \(paid): order \(order.id) failed"
        case let .settled(.voided(order)): "a payment for a closed order: cancelled at the PG (order \(order.id))"
        }
    }
}
