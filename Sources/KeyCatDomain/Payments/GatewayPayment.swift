import Foundation

/// A payment as the payment gateway reports it, in domain types.
public struct GatewayPayment: Sendable, Hashable {
    /// The gateway's status of a payment.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Registered or opened, not paid yet.
        case ready
        /// Paid (possibly partly cancelled: see ``GatewayPayment/cancelledAmount``).
        case paid
        /// The buyer's payment failed (declined, expired card, amount mismatch…).
        case failed
        /// Fully cancelled.
        case cancelled
    }

    /// The gateway's id of the payment.
    public var impUID: String
    /// Our order's merchant UID.
    public var merchantUID: String
    public var status: Status
    /// What the buyer paid (or was asked to pay).
    public var amount: Money
    /// How much has been cancelled (refunded) so far.
    public var cancelledAmount: Money
    /// Why the payment failed, when it did.
    public var failureReason: String?
    public var paidAt: Date?
    /// The currency the amount is in, as the gateway says it (ISO 4217): only a payment in
    /// ``Money/currency`` (KRW) pays for an order.
    public var currency: String
    /// Whether the gateway made it in test mode (PortOne v1's `sandbox`): no money moved, so it
    /// pays for nothing at a gateway that takes real money (``PaymentGateway/takesRealMoney``).
    public var isTestPayment: Bool

    public init(
        impUID: String, merchantUID: String, status: Status, amount: Money, cancelledAmount: Money = .zero,
        failureReason: String? = nil, paidAt: Date? = nil, currency: String = Money.currency, isTestPayment: Bool = false
    ) {
        self.currency = currency
        self.isTestPayment = isTestPayment
        self.impUID = impUID
        self.merchantUID = merchantUID
        self.status = status
        self.amount = amount
        self.cancelledAmount = cancelledAmount
        self.failureReason = failureReason
        self.paidAt = paidAt
    }

    /// What can still be cancelled: the checksum a cancel must send.
    public var cancellableAmount: Money {
        status == .paid ? Money(won: amount.won - cancelledAmount.won) : .zero
    }
}

/// A request to cancel (refund) all or part of a payment.
public struct GatewayCancellation: Sendable, Hashable {
    /// Which payment: by the gateway's id or by our merchant UID.
    public enum Target: Sendable, Hashable {
        case impUID(String)
        case merchantUID(String)
    }

    public var target: Target
    /// How much to cancel; nil cancels the whole cancellable balance.
    public var amount: Money?
    /// The cancellable balance we believe the payment has; the gateway refuses the cancel when
    /// its own differs (someone else refunded meanwhile).
    public var checksum: Money
    public var reason: String
    /// Names the cancel across repeats: a cancel sent again with the same key and checksum (after a
    /// lost answer, by reconciliation) is the same act. A gateway that deduplicates by key applies
    /// it once; against PortOne v1, which does not, the checksum refuses the repeat and the
    /// client reads the payment back to see whether the first one landed.
    public var idempotencyKey: String?

    public init(target: Target, amount: Money? = nil, checksum: Money, reason: String, idempotencyKey: String? = nil) {
        self.target = target
        self.amount = amount
        self.checksum = checksum
        self.reason = reason
        self.idempotencyKey = idempotencyKey
    }
}
