import Foundation

/// A refund an operator asks for.
public struct RefundRequest: Sendable, Hashable {
    /// How much; nil refunds the whole refundable balance.
    public var amount: Money?
    public var reason: String
    /// Give the units back to stock (only with a full refund).
    public var restock: Bool
    /// The refundable balance the caller believes in (the PG checksum); when given and stale the
    /// refund is refused with `cancellableAmountInconsistent`.
    public var expectedBalance: Money?
    public var idempotencyKey: String?

    public init(amount: Money? = nil, reason: String, restock: Bool = false, expectedBalance: Money? = nil,
                idempotencyKey: String? = nil) {
        self.amount = amount
        self.reason = reason
        self.restock = restock
        self.expectedBalance = expectedBalance
        self.idempotencyKey = idempotencyKey
    }
}

extension OrderService {
    /// Refunds all or part of a paid order at the PG (admin), with the cancellable balance as
    /// checksum. A full refund makes it `refunded` (and with `restock`, gives the units back);
    /// a partial one `partiallyRefunded`. The sum of refunds never exceeds what was paid.
    ///
    /// The refund is recorded `pending` (with `request.idempotencyKey`) before the PG is called,
    /// and the PG cancel carries a key derived from that row, so the PG applies it once however
    /// often it is sent. A retry with the same idempotency key never starts a second refund: it
    /// returns the order once the first is done, and settles the first when it is still pending
    /// (its PG answer was lost, or KeyCat could not record it) — also after the key's 24-hour
    /// answer record has gone, and after reconciliation has completed it.
    ///
    /// - Throws: `illegalTransition` for an order that holds no payment; `validation` for a
    ///   non-positive amount or a missing reason; `cancelAmountExceedsCancellable` above the
    ///   balance; `cancellableAmountInconsistent` for a stale `expectedBalance` or when the PG's
    ///   balance differs from ours; `requestInProgress` while another refund of the order is
    ///   pending; `idempotencyKeyReused`. When the PG acted or may have and the refund could not
    ///   be completed here, the error's context has `outcome` (`unknown`: no answer;
    ///   `gateway_refunded`: the PG refunded, recording it failed), `order_id` and `refund_id`:
    ///   the refund stays pending for reconciliation, which completes it exactly once.
    public func refund(_ id: OrderID, _ request: RefundRequest, by principal: Principal) async throws(KeyCatError) -> Order {
        try principal.require(.admin, to: "refund orders")
        // The request's own rules first, so a bad request is a 400 whether or not the order exists.
        _ = try Self.checkedReason(request.reason)
        if let amount = request.amount, amount <= .zero {
            throw KeyCatError.validation("amount", "a refund amount must be positive")
        }
        let fingerprint = "\(id)|\(request.amount?.won ?? -1)|\(request.restock)|\(request.reason)"
        return try await idempotency.run(scope: "refund:\(principal.auditActor)", key: request.idempotencyKey,
                                         fingerprint: fingerprint) { () async throws(KeyCatError) -> Order in
            let current = try await visibleOrder(id, by: principal)
            if let key = request.idempotencyKey, let earlier = try await orders.refund(of: id, requestKey: key) {
                guard earlier.requestFingerprint == fingerprint else {
                    throw KeyCatError(.idempotencyKeyReused, "the idempotency key was used for another refund of order \(id)")
                }
                guard earlier.status == .pending, let impUID = current.impUID else { return current }
                return try await send(earlier, impUID: impUID, action: "order.refund", sentBefore: true, by: principal)
            }
            return try await refund(current, request, cancelling: false, fingerprint: fingerprint, by: principal)
        }
    }

    func refund(_ order: Order, _ request: RefundRequest, cancelling: Bool, fingerprint: String? = nil,
                        by principal: Principal) async throws(KeyCatError) -> Order {
        let reason = try Self.checkedReason(request.reason)
        guard order.status.holdsPayment, let impUID = order.impUID else {
            try order.status.checkMove(to: .refunded)
            throw KeyCatError(.illegalTransition, "order \(order.id) holds no payment to refund")
        }
        if let amount = request.amount, amount <= .zero {
            throw KeyCatError.validation("amount", "a refund amount must be positive")
        }
        if let expected = request.expectedBalance, expected != order.refundableAmount {
            throw KeyCatError(.cancellableAmountInconsistent,
                              "the refundable balance is \(order.refundableAmount), not \(expected): read the order again",
                              context: ["refundable": "\(order.refundableAmount.won)"])
        }
        let refund = try await orders.beginRefund(
            orderID: order.id, expectedStatus: order.status, amount: request.amount, reason: reason,
            restock: request.restock, target: { isFull in isFull ? (cancelling ? .cancelled : .refunded) : .partiallyRefunded },
            requestKey: request.idempotencyKey, requestFingerprint: request.idempotencyKey == nil ? nil : fingerprint,
            requestedBy: principal.auditActor, at: clock.now())
        return try await send(refund, impUID: impUID, action: cancelling ? "order.cancel" : "order.refund", by: principal)
    }

    /// Sends a pending refund to the PG (its key makes a repeat harmless) and records the answer.
    /// `sentBefore`: the refund was begun by an earlier request, so the PG may have it already.
    func send(_ refund: Refund, impUID: String, action: String, sentBefore: Bool = false,
              by principal: Principal) async throws(KeyCatError) -> Order {
        do throws(KeyCatError) {
            _ = try await settlement.sendRefund(refund, impUID: impUID)
        } catch where !RefundOutcome.certainlyNotRefunded(by: error, sentBefore: sentBefore) {
            throw RefundOutcome.unknown(refund, error)  // the refund stays pending; reconciliation finishes it
        } catch {
            try await orders.failRefund(refund, audit: Self.failedRefundAudit(
                refund, actor: principal.auditActor, action: action, error: error, at: clock.now()), at: clock.now())
            throw error
        }
        do throws(KeyCatError) {
            return try await orders.completeRefund(refund, audit: AuditEntry(
                actor: principal.auditActor, action: action, target: "order:\(refund.orderID)",
                detail: "\(refund.amount) refunded\(refund.restock ? " with restock" : ""): \(refund.reason)", at: clock.now()),
                at: clock.now())
        } catch {
            throw RefundOutcome.recordingFailed(refund, error)
        }
    }

    /// The audit entry of a refund the PG refused (`refund.failed`, target the order): who asked
    /// (`actor`, or reconciliation on their behalf), what for (`action`: `order.refund`,
    /// `shipment.cancel`, …), how much and the PG's answer. The order does not move, but a
    /// refused refund is what a buyer's complaint or an operator's second try starts from, and
    /// until 2026-12-02 it left no trace but a `failed` row.
    static func failedRefundAudit(_ refund: Refund, actor: String, action: String, error: KeyCatError, at now: Date) -> AuditEntry {
        AuditEntry(actor: actor, action: "refund.failed", target: "order:\(refund.orderID)",
                   detail: "refund \(refund.id) of \(refund.amount) (\(action)) refused by the PG: \(error.code.rawValue)", at: now)
    }

    /// A cancellation's or a refund's reason, once trimmed, in characters.
    public static let reasonLength = 1...200
    /// A cancellation's or a refund's reason: 1–200 characters, at most 800 bytes (``TextRules``).
    public static let reasonField = TextRules.Field("reason", characters: reasonLength)
    /// A shipment's carrier: 1–50 characters, at most 200 bytes.
    public static let carrierField = TextRules.Field("carrier", characters: 1...50)
    /// A shipment's tracking number: 1–50 characters, at most 200 bytes.
    public static let trackingNumberField = TextRules.Field("tracking_number", characters: 1...50)

    static func checkedReason(_ reason: String) throws(KeyCatError) -> String {
        try TextRules.text(reason, reasonField)
    }
}
