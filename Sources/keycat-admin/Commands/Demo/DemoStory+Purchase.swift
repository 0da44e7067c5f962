import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization

extension DemoStory {
    func fillCartAndCheckout() async throws {
        _ = try await keycat.cart.add(product.id, quantity: 2, by: buyer)
        // A second line from another seller: the cheapest keycap set in stock.
        let keycaps = try await keycat.catalog.list(ProductListRequest(
            filter: ProductFilter(category: .keycap), sort: .priceAscending, limit: try PageLimit(10)))
        if let keycap = keycaps.items.first(where: { $0.stock > 0 }) {
            _ = try await keycat.cart.add(keycap.id, quantity: 1, by: buyer)
        }
        let cart = try await keycat.cart.cart(of: buyer)
        let home = try await keycat.addresses.add(try DeliveryAddress.validated(
            recipient: "김민지", phone: "01023456789", postcode: "04524", roadAddress: "서울특별시 중구 세종대로 110",
            detail: "3층 301호", request: "부재 시 경비실에 맡겨 주세요"), by: buyer)
        narrator.step("She saves her delivery address", [
            "Address \(home.id): \(home.address.recipient), \(home.address.phone), (\(home.address.postcode)) \(home.address.roadAddress) \(home.address.detail).",
            "The phone and postcode are checked as Korean formats (01023456789 is stored as \(home.address.phone)); the first address is her default.",
            "Logs show it only redacted: \(home.address.redacted).",
        ])
        let stockBefore = try await keycat.catalog.product(product.id).stock
        let (keycat, buyer) = (keycat, buyer!)
        order = try await keycat.checkout.checkout(CheckoutRequest(.cart, destination: .saved(home.id), idempotencyKey: "demo-checkout-1"), by: buyer)
        narrator.step("She fills her cart and checks out to that address", [
            cart.lines.map { "  - \($0.quantity) × \($0.title): \($0.lineTotal) + delivery \($0.deliveryFee)" }.joined(separator: "\n"),
            "Order \(order.id) (\(order.merchantUID)) comes to \(order.amount): items \(order.itemsTotal) + delivery \(order.deliveryTotal), computed by the server, never taken from the app.",
            "Two sellers, so two parcels: " + order.shipments.map { "shipment \($0.id) from seller \($0.sellerID) (lines \($0.lines.map(String.init).joined(separator: ", ")), fee \($0.deliveryFee))" }
                .joined(separator: " and ") + "; each seller charges one fee per order, the highest of their lines.",
            "The order keeps its own copy of the address: editing the address book later changes no order.",
            "Stock is taken now (\(stockBefore) → \(try await self.keycat.catalog.product(product.id).stock)) and held for 15 minutes; the amount is pre-registered with the PG, so a forged payment is caught.",
        ])
    }

    func pay() async throws {
        guard let simulator = keycat.paymentSimulator else { return }
        let (keycat, buyer, order) = (keycat, buyer!, order!)
        let declined = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.declined.number)
        var refusal = "no error"
        do {
            _ = try await keycat.checkout.confirm(order.id, impUID: declined.impUID, by: buyer)
        } catch {
            refusal = "\(error.code.rawValue): \(error.message)"
        }
        narrator.step("Her first card is declined", [
            "The PG window (simulator test card \(PGTestCard.declined.number)) answers: \(declined.status.rawValue), \(declined.failureReason ?? "").",
            "Her app confirms anyway; KeyCat re-reads the payment from the PG and refuses: \(refusal).",
            "Order \(order.id) is still \(try await keycat.orders.order(order.id, by: buyer).status.rawValue): she may try again until the reservation expires.",
        ])
        let paid = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number, amount: order.amount.won)
        self.order = try await keycat.checkout.confirm(order.id, impUID: paid.impUID, by: buyer)
        narrator.step("The second card pays, and the payment is confirmed", [
            "The PG charges \(Money(won: paid.amount)) to the card ending \(paid.cardLast4 ?? "????") (imp_uid \(paid.impUID)).",
            "KeyCat re-reads it and checks merchant_uid, amount and status before moving order \(order.id) to \(self.order.status.rawValue).",
        ])
    }

    func deliverWebhooks() async throws {
        guard let simulator = keycat.paymentSimulator else { return }
        let receiver = RecordingWebhookReceiver(keycat.webhooks)
        simulator.registerWebhookReceiver(InProcessTransport(receiver), path: "/webhooks/pg")
        // Every webhook is sent twice, as a PG retrying after a lost acknowledgement would.
        simulator.configureFaults(PGFaultConfiguration(webhookDuplicateRate: 1))
        let delivered = await simulator.deliverPendingWebhooks()
        simulator.configureFaults(.none)
        let outcomes = receiver.outcomes.withLock { $0 }
        narrator.step("The PG's webhooks arrive, each one twice", [
            outcomes.map { "  - webhook \($0.id.prefix(12))…: \($0.outcome)" }.joined(separator: "\n"),
            "\(delivered) deliveries, each verified (HMAC signature, five-minute window). A repeated webhook id is ignored, and a first delivery only re-reads the PG: the order was paid once, by the confirm.",
        ])
    }

    func confirmReceipt() async throws {
        for shipment in order.shipments { order = try await keycat.orders.confirmReceipt(of: shipment.id, by: buyer) }
        narrator.step("She confirms receipt of both parcels (구매확정)", [
            "Until she confirms, she may ask for a return; if she neither confirms nor asks, reconciliation confirms a parcel 7 days after it arrived.",
            "From now on each parcel's sale is payable to its seller, and what it held can be reviewed.",
        ])
    }

    func review() async throws {
        let review = try await keycat.reviews.write(
            ReviewForm(rating: 5, content: "55g 택타일, 윤활 상태 아주 좋아요. 조용하고 구분감이 분명합니다."), of: product.id, by: buyer)
        let rated = try await keycat.catalog.product(product.id)
        narrator.step("She reviews the switches", [
            "Review \(review.id): \(review.rating) stars. Only a buyer who received the product and confirmed it may review it, once.",
            "The product's rating is now \(rated.averageRating.map { String(format: "%.1f", $0) } ?? "-") from \(rated.ratingCount) review, kept on the product in the same transaction.",
        ])
    }

    func shipAndDeliver() async throws {
        guard let desk = try await keycat.orders.sellerOrders(by: seller).items.first(where: { $0.orderID == order.id }) else {
            throw KeyCatError(.internalError, "the seller's desk does not show order \(order.id)")
        }
        let to = desk.shippingAddress.map { "\($0.recipient), \($0.phone), (\($0.postcode)) \($0.roadAddress) \($0.detail) — “\($0.request)”" } ?? "-"
        narrator.step("The seller opens their order desk", [
            "소리키보드 sees order \(desk.orderID) (\(desk.status.rawValue)) from \(desk.buyerNick) — her nick, not her email — with only their own lines:",
            desk.lines.map { "  - line \($0.position): \($0.line.quantity) × \($0.line.title)" }.joined(separator: "\n"),
            "Ship to: \(to).",
            "Their shipment \(desk.shipment.id) is \(desk.shipment.status.rawValue). The other seller's keycaps, and the address of any order without their lines, are not on this desk.",
        ])
        let partly = try await keycat.orders.ship(shipment: desk.shipment.id, carrier: "CJ대한통운", trackingNumber: "5531-2026-1123", by: seller)
        let shipped = try requireShipment(partly, desk.shipment.id)
        narrator.step("They ship their parcel: the order is partly shipped", [
            "Shipment \(shipped.id) left with \(shipped.carrier ?? "-"), tracking \(shipped.trackingNumber ?? "-") (checked as a CJ대한통운 number: 10 or 12 digits).",
            "Order \(partly.id) is still \(partly.status.rawValue), its fulfilment \(partly.fulfilment.rawValue): the state follows from its shipments.",
        ])
        for other in partly.shipments where other.sellerID != seller.userID {
            let owner = Principal(userID: other.sellerID, role: .seller)
            _ = try await keycat.orders.ship(shipment: other.id, carrier: "한진택배", trackingNumber: "4123-4567-89", by: owner)
            _ = try await keycat.orders.deliver(shipment: other.id, by: owner)
        }
        // CJ대한통운 delivers the switches; 한진택배 has never heard of the keycaps' number.
        await carriers.report(.delivered(at: now), carrier: "kr.cjlogistics", trackingNumber: shipped.trackingNumber ?? "")
        let tracking = try await keycat.trackParcels()
        order = try await keycat.orders.order(order.id, by: buyer)
        let byCarrier = try requireShipment(order, shipped.id)
        let byWord = order.shipments.filter { $0.id != shipped.id }
        let untrackedDays = Int(keycat.configuration.untrackedConfirmationDelay / 86_400)
        narrator.step("The keycap seller ships too, and both parcels arrive: one on its carrier's word, one on its seller's", [
            order.shipments.map { "  - shipment \($0.id) (seller \($0.sellerID)): \($0.status.rawValue), \($0.carrier ?? "-") \($0.trackingNumber ?? "-"), carrier says \($0.carrierStatus?.rawValue ?? "-")" }
                .joined(separator: "\n"),
            "Order \(order.id) is \(order.status.rawValue) (fulfilment \(order.fulfilment.rawValue)). Each seller ships and delivers only their own parcel; an operator may move any.",
            "The shop tracks parcels (simulated carriers here), and KeyCat asked about the \(tracking.asked) that left. CJ대한통운 says shipment \(byCarrier.id) was delivered, so it is \(byCarrier.status.rawValue) with no seller's click, and the buyer's week to confirm or return it runs from the carrier's time.",
            byWord.map { parcel in
                let carrier = (try? Carrier.named(parcel.carrier ?? ""))?.name ?? "its carrier"
                return "Shipment \(parcel.id)'s seller marked it delivered, but \(carrier) has no parcel \(parcel.trackingNumber ?? "-"): time would confirm it only \(untrackedDays) days after it shipped, so a made-up number pays nobody sooner."
            }
                .joined(separator: "\n"),
        ])
    }

    /// The shipment `id` of `order`.
    private func requireShipment(_ order: Order, _ id: ShipmentID) throws -> Shipment {
        guard let shipment = order.shipments.first(where: { $0.id == id }) else {
            throw KeyCatError(.internalError, "order \(order.id) has no shipment \(id)")
        }
        return shipment
    }

    func settle() async throws {
        let period = SettlementPeriod(containing: keycat.configuration.clock.now())
        let soFar = try await keycat.settlements.close(period, dryRun: true, by: operatorConsole)
        let upcoming = try await keycat.settlements.upcoming(by: seller)
        let ours = soFar.first { $0.sellerID == seller.userID }
        narrator.step("What the shop owes each seller: \(period), so far", [
            soFar.map { "  - seller \($0.sellerID): sales \($0.sales) + delivery \($0.deliveryFees) − refunds \($0.refunds) − commission \($0.commission) = payout \($0.payout)" }
                .joined(separator: "\n"),
            "소리키보드's figures, as their own GET /seller/settlements/upcoming shows them, come from these rows:",
            upcoming.entries.map { entry in
                let what = entry.line.map { "line \($0)" } ?? "delivery fee"
                let source = entry.paymentID.map { "payment \($0)" } ?? entry.refundID.map { "refund \($0)" } ?? "-"
                return "  - \(entry.kind.rawValue) of \(what): \(entry.amount), commission \(entry.commission ?? .zero) (\(source))"
            }.joined(separator: "\n"),
            "Payout \(Money(won: upcoming.tally.payout)) (the operator's dry run says \(ours?.payout ?? .zero)). The platform keeps \(Self.percent(keycat.configuration.commission.defaultRate)) of item sales and \(Self.percent(keycat.configuration.commission.deliveryFeeRate)) of the delivery fees; a refund gives its commission back.",
            "When \(period) has ended in Korea, `keycat-admin settlements run --period \(period)` closes it: its settlements never change, and a later refund falls into the next month.",
        ])
    }

    func refund() async throws {
        let (keycat, owner) = (keycat, seller!)
        guard let parcel = order.shipments.first(where: { $0.sellerID == owner.userID }) else { return }
        let request = LineRefundRequest(amount: Money(won: 5_000), reason: "two switches arrived with bent pins",
                                        idempotencyKey: "demo-refund-1")
        order = try await keycat.orders.refundLines(of: parcel.id, request, by: owner)
        narrator.step("Two switches arrive bent: before she confirms receipt, the seller refunds part of their parcel", [
            "소리키보드 gives back \(request.amount!) of shipment \(parcel.id); the buyer keeps the switches, so no line is marked refunded and nothing returns to stock.",
            "A seller refunds only until the buyer confirms receipt: after it the parcel is payable to them, and only an operator refunds it.",
            "It goes to the PG as a partial cancel, with the refundable balance as a checksum so two refunds can never both spend it, and it is charged to this seller alone.",
            "Order \(order.id) is \(order.status.rawValue): \(order.refundedAmount) refunded of \(order.amount).",
        ])
    }

    func statistics() async throws {
        let report = try await keycat.statistics.report(days: 7, top: 3, by: operatorConsole)
        narrator.step("The operator reads the statistics (last 7 days, Seoul calendar days)",
                       [StatsPresenter.text(report).trimmingCharacters(in: .newlines)])
    }

    func check() async throws {
        let health = try await keycat.checkHealth()
        narrator.step("db check: the database is \(health.isHealthy ? "healthy" : "NOT healthy")", [
            "integrity: \(health.integrityProblems.isEmpty ? "ok" : health.integrityProblems.joined(separator: "; "))",
            "foreign keys: \(health.foreignKeyProblems.isEmpty ? "ok" : health.foreignKeyProblems.joined(separator: "; "))",
            "invariants (stock, counters, payments, shipments, settlement ledger): \(health.invariantProblems.isEmpty ? "ok" : health.invariantProblems.joined(separator: "; "))",
            "search index against the catalog: \(health.searchProblems.isEmpty ? "ok" : health.searchProblems.joined(separator: "; "))",
        ])
        if !health.isHealthy { throw KeyCatError(.internalError, "the demo left an unhealthy database") }
    }

    /// Basis points as a percentage: 1000 → "10 %", 1250 → "12.5 %".
    static func percent(_ basisPoints: Int) -> String {
        basisPoints % 100 == 0 ? "\(basisPoints / 100) %" : "\(Double(basisPoints) / 100) %"
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

    func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        let id = request.headers["webhook-id"] ?? "?"
        do {
            let outcome = try await receiver.receive(headers: request.headers, body: request.body)
            outcomes.withLock { $0.append(Delivery(id: id, outcome: Self.describe(outcome))) }
            return TransportResponse(status: 200, headers: [:], body: Data())
        } catch {
            outcomes.withLock { $0.append(Delivery(id: id, outcome: "refused: \(error.message)")) }
            return TransportResponse(status: 400, headers: [:], body: Data())
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
        case let .settled(.refused(order, reason)): "\(reason): order \(order.id) failed"
        case let .settled(.voided(order)): "a payment for a closed order: cancelled at the PG (order \(order.id))"
        case let .settled(.soldOut(order, product)): "product \(product) sold out before the payment: order \(order.id) failed, the payment cancelled"
        }
    }
}
