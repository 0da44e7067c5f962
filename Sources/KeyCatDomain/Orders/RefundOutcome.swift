/// The errors of a refund the PG acted on, or may have, that could not be completed here: the
/// refund row stays `pending`, and the message says so and what settles it, so nobody refunds
/// again by hand. Context: `outcome`, `order_id`, `refund_id`, `amount`.
enum RefundOutcome {
    /// Whether a refund's cancel that failed with `error` certainly moved no money at the PG, so
    /// the refund may be recorded failed (and its key freed). Never after no answer or one that
    /// could not be read. For a refund `sent` before, whose answer was lost, only the PG's word on
    /// the payment itself settles it — its balance, as the client checked it against the refund's
    /// (``PaymentGateway/cancel(_:)``), or the payment unknown or unpaid; a refusal of the
    /// request (credentials, permissions, a body it would not take) says nothing of the first
    /// send, which may have landed.
    /// The same holds within one call: a refusal that ended a cancel whose earlier send's answer
    /// was lost (``GatewayCancellation/mayHaveActedContext``, the balance not telling either way)
    /// says nothing of that send.
    static func certainlyNotRefunded(by error: KeyCatError, sentBefore: Bool) -> Bool {
        if error.context[GatewayCancellation.mayHaveActedContext] != nil { return false }
        return switch error.code {
        case .gatewayTimeout, .gatewayUnavailable, .rateLimited, .invalidGatewayResponse:
            false
        case .cancellableAmountInconsistent, .paymentAlreadyCancelled, .cancelAmountExceedsCancellable, .paymentNotFound, .paymentNotPaid:
            true
        default:
            !sentBefore
        }
    }

    /// The PG did not answer (timeout, 5xx after retries, rate limit), its answer could not be
    /// read, or a repeat was refused: it may have refunded.
    static func unknown(_ refund: Refund, _ cause: KeyCatError) -> KeyCatError {
        KeyCatError(cause.code, """
            the PG may have refunded \(refund.amount) of order \(refund.orderID) (refund \(refund.id)), and its answer \
            (\(cause.message)) does not say: the outcome is unknown. The refund stays pending: reconciliation completes \
            it exactly once (so does a retry with the same idempotency key); then read the order again
            """, context: cause.context.merging(context(refund, outcome: "unknown")) { _, new in new })
    }

    /// The PG refunded, but writing it down failed (disk full, database busy…).
    static func recordingFailed(_ refund: Refund, _ cause: KeyCatError) -> KeyCatError {
        KeyCatError(cause.code, """
            the PG refunded \(refund.amount) of order \(refund.orderID) (refund \(refund.id)), but KeyCat could not \
            record it (\(cause.message)). The refund stays pending: reconciliation completes it without refunding \
            again (so does a retry with the same idempotency key); then read the order again
            """, context: cause.context.merging(context(refund, outcome: "gateway_refunded")) { _, new in new })
    }

    private static func context(_ refund: Refund, outcome: String) -> [String: String] {
        ["outcome": outcome, "order_id": "\(refund.orderID)", "refund_id": "\(refund.id)", "amount": "\(refund.amount.won)"]
    }
}
