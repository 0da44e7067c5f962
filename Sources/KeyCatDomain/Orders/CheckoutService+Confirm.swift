import Foundation

/// What a webhook delivery did.
public enum WebhookOutcome: Sendable, Hashable {
    /// The webhook id was seen before: nothing done.
    case duplicate
    /// The merchant UID is none of ours: acknowledged and ignored.
    case unknownOrder
    /// The payment was re-read and applied.
    case settled(SettlementOutcome)
}

extension CheckoutService {
    /// The buyer's confirmation after paying: re-reads `impUID` from the PG and applies it.
    ///
    /// - Returns: the paid order (also when a webhook or another confirm got there first).
    /// - Throws: `paymentDeclined` when the payment is not paid (the order stays awaiting
    ///   payment, so the buyer may try again until it expires); `paymentAmountForged` when the
    ///   paid amount differs (the payment was cancelled, the order failed); `outOfStock` naming
    ///   the product when a line sold on payment found it sold out (the order failed, the payment
    ///   was cancelled); `illegalTransition`
    ///   when the order had closed (the payment was cancelled); `gatewayTimeout` when the PG's
    ///   answer was lost (reconciliation settles it); `notFound` for a missing order or one that
    ///   is not the caller's; `validation` (field `imp_uid`) for an id not shaped as the PG's
    ///   (``PaymentRules/impUID(_:field:)``) or a payment of another order. When a webhook
    ///   applied the payment first, the error is the one this call would have thrown had it come
    ///   first, not `paymentDeclined` for the payment that webhook cancelled. `rateLimited`
    ///   (429, `retry_after`) past 30 confirmations at once, then one a second, by one caller
    ///   (``RateLimit/confirmationsDefault``); a confirm of an order its payment already paid
    ///   answers the order at once, claiming no key and taking no token.
    public func confirm(_ orderID: OrderID, impUID: String, idempotencyKey: String? = nil, by principal: Principal) async throws(KeyCatError) -> Order {
        // The request's own rule before any lookup: a malformed id never reaches the PG.
        let impUID = try PaymentRules.impUID(impUID)
        // The order's own row is enough to check it and to settle it: the order answered is
        // the one the settlement's move returns (or, already paid, reads).
        guard let order = try await orders.standing(of: orderID) else { throw KeyCatError.notFound("order", orderID) }
        try principal.requireOwnerOrAdmin(order.buyerID, hiding: "order", orderID)
        // Already paid by this payment: the answer is the order, whatever key came with it, so
        // no key is claimed (a loop of fresh keys would write two rows a call, each kept a day).
        if order.impUID == impUID { return try await settlement.reload(orderID) }
        // Anything else may ask the PG, whose calls every buyer's payment shares.
        try await confirmLimiter.take(for: principal.userID)
        return try await idempotency.run(scope: "confirm:\(principal.userID)", key: idempotencyKey,
                                         fingerprint: "\(orderID)|\(impUID)") { () async throws(KeyCatError) -> Order in
            // With a key the order is read again: while this call waited for the key, another
            // may have moved it. Without one nothing ran in between.
            let current = await idempotencyKey == nil ? order : try settlement.standing(of: orderID)
            if current.impUID == impUID { return try await settlement.reload(orderID) }
            let payment: GatewayPayment
            do throws(KeyCatError) {
                payment = try await gateway.payment(impUID: impUID)
            } catch {
                if error.code == .gatewayTimeout, current.status == .awaitingPayment {
                    try await orders.setOutcomeUnknown(orderID, true)
                }
                throw error
            }
            guard payment.merchantUID == current.merchantUID else {
                throw KeyCatError.validation("imp_uid", "the payment \(impUID) is not for order \(orderID)")
            }
            switch try await settlement.settle(current, with: payment, via: "confirm") {
            case let .paid(order), let .alreadyPaid(order):
                return order
            case let .notPaid(_, reason):
                throw KeyCatError(.paymentDeclined, "the payment did not go through: \(reason)",
                                  context: ["order_id": "\(orderID)", "reason": reason])
            case let .forged(order, paid):
                throw KeyCatError(.paymentAmountForged,
                                  "paid \(paid) for an order of \(order.amount): the payment was cancelled",
                                  context: ["order_id": "\(orderID)", "paid": "\(paid.won)", "amount": "\(order.amount.won)"])
            case let .refused(order, reason):
                throw KeyCatError(.paymentAmountForged, "\(reason): the payment was cancelled",
                                  context: ["order_id": "\(orderID)", "reason": reason, "amount": "\(order.amount.won)"])
            case let .soldOut(order, product):
                throw KeyCatError(.outOfStock, "a line sold on payment sold out before the payment arrived: the payment was cancelled",
                                  context: ["order_id": "\(orderID)", "product_id": "\(product)", "status": order.status.rawValue])
            case let .voided(order):
                throw KeyCatError(.illegalTransition,
                                  "the order is \(order.status.rawValue); the payment was cancelled and will be returned",
                                  context: ["order_id": "\(orderID)", "status": order.status.rawValue])
            }
        }
    }

    /// Handles a PG webhook that passed signature verification: drops a duplicate by its id,
    /// never trusts the body's status, re-reads the payment and applies it like ``confirm``.
    ///
    /// The id is recorded only once the delivery was handled. Two deliveries of one id at once
    /// both re-read the payment and the conditional updates let one apply it; a delivery whose
    /// handling or recording failed is handled again when the PG redelivers it (a payment
    /// already applied then changes nothing).
    ///
    /// - Throws: `validation` (field `imp_uid`) for an id not shaped as the PG's; a gateway error
    ///   when the payment could not be re-read, a storage error when it could not be applied or
    ///   the id recorded: answer non-2xx, and the PG's redelivery is handled.
    public func handleWebhook(id: String, impUID: String, merchantUID: String) async throws(KeyCatError) -> WebhookOutcome {
        let impUID = try PaymentRules.impUID(impUID)
        guard try await !webhookEvents.isRecorded(id) else { return .duplicate }
        let outcome: WebhookOutcome
        if let order = try await orders.find(merchantUID: merchantUID) {
            let payment = try await gateway.payment(impUID: impUID)
            outcome = payment.merchantUID == order.merchantUID
                ? .settled(try await settlement.settle(order, with: payment, via: "webhook")) : .unknownOrder
        } else {
            outcome = .unknownOrder
        }
        _ = try await webhookEvents.recordFirstDelivery(of: id, at: clock.now())
        return outcome
    }

    /// Handles an unsigned payment notification (PortOne v1's webhook): the body proves nothing,
    /// so only its merchant UID is used, as a hint to re-read the order's latest payment attempt
    /// from the PG and apply the PG's answer like ``confirm`` would. The notification's `imp_uid`
    /// is not believed: a forged one naming an old failed attempt must not settle the order from
    /// it. Nothing is recorded: a forged hint costs one PG read and settles the order from the
    /// truth, and a real one that follows it is handled the same way.
    ///
    /// - Parameter admit: called once the merchant UID is known to be an order of ours, before
    ///   the PG is read; throws to refuse (the caller's budget of PG reads), so notifications
    ///   about no order of ours cost nothing.
    /// - Returns: ``WebhookOutcome/unknownOrder`` when `merchantUID` is none of ours; else what
    ///   settling did.
    /// - Throws: what `admit` throws; a gateway error when the payment could not be re-read
    ///   (`paymentNotFound` when the PG has no attempt for the order), a storage error when it
    ///   could not be applied.
    public func handlePaymentNotification(
        merchantUID: String, admit: @Sendable () throws(KeyCatError) -> Void
    ) async throws(KeyCatError) -> WebhookOutcome {
        guard let order = try await orders.find(merchantUID: merchantUID) else { return .unknownOrder }
        try admit()
        let payment = try await gateway.payment(merchantUID: order.merchantUID)
        guard payment.merchantUID == order.merchantUID else { return .unknownOrder }
        return .settled(try await settlement.settle(order, with: payment, via: "webhook"))
    }
}
