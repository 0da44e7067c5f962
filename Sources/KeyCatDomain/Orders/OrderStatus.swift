/// Where an order is in its life (architecture §2). Moves between statuses follow ``OrderStatus/transitions``,
/// a table: anything not in it is an `illegalTransition` conflict.
public enum OrderStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case awaitingPayment = "awaiting_payment"
    case paid
    case shipped
    case delivered
    case partiallyRefunded = "partially_refunded"
    case refunded
    case expired
    case cancelled
    /// The paid amount was forged; the payment was cancelled at the PG.
    case failed

    /// The state machine, as data: every legal move from each status.
    ///
    /// ```
    /// awaitingPayment → paid → shipped → delivered
    /// awaitingPayment → expired | cancelled | failed
    /// paid | shipped | delivered → partiallyRefunded → refunded
    /// paid → cancelled                        (buyer cancel before shipping = full refund)
    /// ```
    /// A full refund goes straight to `refunded`; further partial refunds keep
    /// `partiallyRefunded`.
    public static let transitions: [OrderStatus: Set<OrderStatus>] = [
        .awaitingPayment: [.paid, .expired, .cancelled, .failed],
        .paid: [.shipped, .partiallyRefunded, .refunded, .cancelled],
        .shipped: [.delivered, .partiallyRefunded, .refunded],
        .delivered: [.partiallyRefunded, .refunded],
        .partiallyRefunded: [.partiallyRefunded, .refunded],
        .refunded: [],
        .expired: [],
        .cancelled: [],
        .failed: [],
    ]

    /// Whether the table allows moving from `self` to `next`.
    public func canMove(to next: OrderStatus) -> Bool {
        Self.transitions[self]?.contains(next) ?? false
    }

    /// Throws ``KeyCatError/Code/illegalTransition`` unless the table allows `self → next`.
    public func checkMove(to next: OrderStatus) throws(KeyCatError) {
        guard canMove(to: next) else {
            throw KeyCatError(.illegalTransition, "an order that is \(rawValue) cannot become \(next.rawValue)",
                              context: ["from": rawValue, "to": next.rawValue])
        }
    }

    /// Paid for and not (fully) given back: the statuses that hold a live payment.
    public var holdsPayment: Bool { [.paid, .shipped, .delivered, .partiallyRefunded].contains(self) }
}
