/// The errors of a refund the PG acted on, or may have, that could not be completed here: the
/// refund row stays `pending`, and the message says so and what settles it, so nobody refunds
/// again by hand. Context: `outcome`, `order_id`, `refund_id`, `amount`.
enum RefundOutcome {
    /// The PG did not answer (timeout, 5xx after retries, rate limit): it may have refunded.
    static func unknown(_ refund: Refund, _ cause: KeyCatError) -> KeyCatError {
        KeyCatError(cause.code, """
            the PG may have refunded \(refund.amount) of order \(refund.orderID) (refund \(refund.id)) but did not \
            answer (\(cause.message)): the outcome is unknown. The refund stays pending: reconciliation completes \
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
