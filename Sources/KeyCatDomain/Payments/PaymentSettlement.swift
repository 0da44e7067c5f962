import Foundation

/// What applying a PG payment to an order did.
public enum SettlementOutcome: Sendable, Hashable {
    /// This call moved the order to paid.
    case paid(Order)
    /// The order was already paid by this payment (another confirm, webhook or reconcile won).
    case alreadyPaid(Order)
    /// The payment is not paid (declined, not yet paid, cancelled): the order is unchanged.
    case notPaid(Order, reason: String)
    /// The paid amount differed from the order's: the order failed and the payment is cancelled.
    case forged(Order, paid: Money)
    /// The payment cannot pay for the order whatever its amount (another currency, a test
    /// payment at a live gateway: ``GatewayPayment/refusal(at:)``): the order failed and the
    /// payment is cancelled.
    case refused(Order, reason: String)
    /// The payment pays for nothing (the order closed or was paid by another payment): it is
    /// cancelled at the PG.
    case voided(Order)
    /// A line sold on payment found its product sold out (``OrderLine/stockTaken``): the order
    /// failed and the payment is cancelled. `productID` names the product.
    case soldOut(Order, productID: ProductID)
}

/// The one place a PG payment is applied to an order: confirm, webhooks and reconciliation all
/// come here, so they make the same decision and race safely (every move is a conditional
/// update, never a write transaction held across a PG call).
struct PaymentSettlement: Sendable {
    let orders: any OrderRepository
    let gateway: any PaymentGateway
    let clock: any WallClock

    /// Applies `payment` (already re-read from the PG and checked to be `order`'s) to `order`.
    func settle(_ order: Order, with payment: GatewayPayment, via source: String) async throws(KeyCatError) -> SettlementOutcome {
        try await settle(OrderStanding(order), with: payment, via: source) { () async throws(KeyCatError) -> Order in order }
    }

    /// Applies `payment` to the order standing as `order`; reads the order for every answer (a
    /// payment not paid: the order as it is now).
    func settle(_ order: OrderStanding, with payment: GatewayPayment, via source: String) async throws(KeyCatError) -> SettlementOutcome {
        try await settle(order, with: payment, via: source) { () async throws(KeyCatError) -> Order in try await reload(order.id) }
    }

    /// Applies `payment` to `order`; `unchanged` gives the order a payment not paid answers with.
    private func settle(
        _ order: OrderStanding, with payment: GatewayPayment, via source: String,
        unchanged: () async throws(KeyCatError) -> Order
    ) async throws(KeyCatError) -> SettlementOutcome {
        guard payment.status == .paid, payment.cancellableAmount > .zero else {
            if order.status == .awaitingPayment { try await orders.setOutcomeUnknown(order.id, false) }
            let current = try await unchanged()
            // Cancelled by another path that applied it first (a webhook beside the buyer's
            // confirm): what that path found is the answer, not the cancellation it made.
            if payment.status == .cancelled, let earlier = try await earlierOutcome(of: payment, for: current) { return earlier }
            let reason = payment.failureReason ?? "the payment is \(payment.status.rawValue)"
            return .notPaid(current, reason: reason)
        }
        let now = clock.now()
        let record = OrderPayment(impUID: payment.impUID, orderID: order.id, merchantUID: order.merchantUID,
                                  amount: payment.amount, status: .paid, createdAt: now)
        // A payment that already pays this order is never refused on a re-read (a setting changed,
        // an answer without its currency): cancelling it would take back money for goods that
        // may have shipped.
        if order.impUID != payment.impUID, let reason = payment.refusal(at: gateway) {
            guard try await fail(order, paidBy: record, because: reason, via: source) else { return await .alreadyPaid(try reload(order.id)) }
            return await .refused(try reload(order.id), reason: reason)
        }
        if payment.amount != order.amount {
            guard try await fail(order, paidBy: record, because: "amount forged: paid \(record.amount) for an order of \(order.amount)",
                                 via: source) else { return await .alreadyPaid(try reload(order.id)) }
            return await .forged(try reload(order.id), paid: record.amount)
        }
        // Late by both clocks: the PG's (when it was paid: a payment reconciliation finds long
        // after its confirm was lost still pays) and ours (a PG clock running fast voids nothing).
        if order.status == .awaitingPayment, min(payment.paidAt ?? now, now) > order.expiresAt.addingTimeInterval(CheckoutService.latePaymentGrace) {
            // Paid after the reservation ended: the order expires (its units back), and the
            // payment is voided below with the closed order's other late payments.
            var expire = OrderTransition(orderID: order.id, from: .awaitingPayment, to: .expired)
            expire.returnsStock = true
            expire.audit = AuditEntry(actor: "system", action: "order.expire", target: "order:\(order.id)",
                                      detail: "paid at the PG after its reservation ended (imp_uid \(payment.impUID), \(source))", at: now)
            _ = try await orders.apply(expire, at: now)
        } else if order.status == .awaitingPayment {
            var move = OrderTransition(orderID: order.id, from: .awaitingPayment, to: .paid)
            move.payment = record
            move.clearsCart = true
            do throws(KeyCatError) {
                if let paid = try await orders.apply(move, at: now) { return .paid(paid) }
            } catch where error.code == .outOfStock {
                // A line sold on payment came too late: the money goes back at once — unless
                // another path (the buyer's confirm beside this webhook) paid the order with it
                // meanwhile, a unit having come back.
                guard try await fail(order, paidBy: record, because: error.message, via: source) else {
                    return await .alreadyPaid(try reload(order.id))
                }
                let product = error.context["product_id"].flatMap(Int64.init).map(ProductID.init) ?? ProductID(0)
                return await .soldOut(try reload(order.id), productID: product)
            }
        }
        let current = try await reload(order.id)
        if current.impUID == payment.impUID { return .alreadyPaid(current) }
        // Paid for an order that closed meanwhile (expired, cancelled) or is paid by another
        // attempt: the money goes back.
        var voiding = record
        voiding.status = .voiding
        guard try await orders.recordVoiding(voiding) else { return await .alreadyPaid(try reload(order.id)) }
        await void(voiding, detail: "paid after the order became \(current.status.rawValue) (\(source))")
        // Read paid before another path failed the order with this very payment: its reason.
        let closed = try await reload(order.id)
        return try await earlierOutcome(of: payment, for: closed) ?? .voided(closed)
    }

    /// What settling `payment` found when another path applied it first and cancelled it: the
    /// order `order` is no longer awaiting payment and holds `payment` as voiding or voided.
    /// Nil when it holds no such payment (a cancellation that was not ours to make).
    ///
    /// The reason is found again rather than stored, in the order ``settle(_:with:via:unchanged:)``
    /// checks: a refusal or a forged amount, whatever the order's state (settling checks them
    /// first); else, when the order failed with this payment as its first, a line sold on
    /// payment that found its product sold out (an order fails once, with the first payment
    /// recorded against it). With several lines sold on payment, the first of them is named:
    /// which one ran short is not kept. Any other voided payment paid for an order that had
    /// closed.
    private func earlierOutcome(of payment: GatewayPayment, for order: Order) async throws(KeyCatError) -> SettlementOutcome? {
        guard order.status != .awaitingPayment, order.impUID != payment.impUID else { return nil }
        let records = try await orders.payments(of: order.id)
        guard records.contains(where: { $0.impUID == payment.impUID && ($0.status == .voiding || $0.status == .voided) }) else {
            return nil
        }
        // In settling's own order: a refusal and a forged amount are answered whatever the
        // order's state, as settling checks them before it looks at the order.
        if let reason = payment.refusal(at: gateway) { return .refused(order, reason: reason) }
        if payment.amount != order.amount { return .forged(order, paid: payment.amount) }
        guard order.status == .failed, records.first?.impUID == payment.impUID else { return .voided(order) }
        let soldOnPayment = order.lines.first { !$0.stockTaken } ?? order.lines.first
        return .soldOut(order, productID: soldOnPayment?.productID ?? ProductID(0))
    }

    /// A payment that cannot pay for the order (a forged amount, another currency, a test
    /// payment at a live gateway, a line sold on payment whose product sold out): the order fails (stock back, audited with `reason`) and the
    /// payment is cancelled.
    ///
    /// - Returns: false when the order is no longer awaiting payment because another path paid
    ///   it with this very payment meanwhile: nothing is cancelled. Until 2026-12-01 the payment
    ///   was cancelled at the PG in full all the same, and the order stayed paid.
    private func fail(_ order: OrderStanding, paidBy record: OrderPayment, because reason: String, via source: String)
        async throws(KeyCatError) -> Bool
    {
        var voiding = record
        voiding.status = .voiding
        let now = clock.now()
        var move = OrderTransition(orderID: order.id, from: .awaitingPayment, to: .failed)
        move.payment = voiding
        move.returnsStock = true
        move.audit = AuditEntry(
            actor: "system", action: "order.fail", target: "order:\(order.id)",
            detail: "\(reason) (imp_uid \(record.impUID), \(source))", at: now)
        if try await orders.apply(move, at: now) == nil {
            guard try await orders.recordVoiding(voiding) else { return false }
        }
        await void(voiding, detail: reason)
        return true
    }

    /// Cancels a `voiding` payment at the PG in full and marks it voided. A lost answer leaves it
    /// `voiding` for reconciliation, which calls this again: the same cancel under the same key
    /// and checksum, which the gateway client recognises as done when the first one landed.
    /// - Returns: whether the payment is now voided (false: left `voiding` for the next run).
    @discardableResult
    func void(_ payment: OrderPayment, detail: String) async -> Bool {
        let cancellation = GatewayCancellation(
            target: .impUID(payment.impUID), amount: nil, checksum: payment.amount,
            // The same body on every try: the key says it is one act, and the checksum refuses a
            // second application. `detail` goes to the audit log.
            reason: "KeyCat: payment voided", idempotencyKey: "void-\(payment.impUID)")
        do throws(KeyCatError) {
            _ = try await gateway.cancel(cancellation)
        } catch where error.code == .paymentAlreadyCancelled {
            // Already back with the buyer.
        } catch {
            return false
        }
        do throws(KeyCatError) {
            try await orders.markVoided(impUID: payment.impUID, audit: AuditEntry(
                actor: "system", action: "payment.void", target: "order:\(payment.orderID)",
                detail: "cancelled \(payment.amount) at the PG (imp_uid \(payment.impUID)): \(detail)", at: clock.now()))
            return true
        } catch {
            return false
        }
    }

    /// Sends a refund's cancel to the PG with its key and checksum: a repeat after a lost answer
    /// is applied once (the checksum refuses it, and the client finds the first one landed).
    func sendRefund(_ refund: Refund, impUID: String) async throws(KeyCatError) -> GatewayPayment {
        try await gateway.cancel(GatewayCancellation(
            target: .impUID(impUID), amount: refund.amount, checksum: refund.checksum, reason: refund.reason,
            idempotencyKey: refund.gatewayKey))
    }

    func reload(_ id: OrderID) async throws(KeyCatError) -> Order {
        guard let order = try await orders.find(id) else { throw KeyCatError.notFound("order", id) }
        return order
    }

    /// Where the order `id` stands now.
    func standing(of id: OrderID) async throws(KeyCatError) -> OrderStanding {
        guard let order = try await orders.standing(of: id) else { throw KeyCatError.notFound("order", id) }
        return order
    }
}
