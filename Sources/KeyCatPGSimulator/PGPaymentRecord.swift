import Foundation

/// A payment as the simulated PG keeps it: one attempt to pay a merchant UID.
public struct PGPaymentRecord: Sendable, Hashable {
    /// The PG's status of a payment (PortOne v1's names).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case ready, paid, failed, cancelled
    }

    /// The PG's id of the payment, e.g. `imp_482913004711`.
    public var impUID: String
    /// The merchant's order id.
    public var merchantUID: String
    /// The amount in won.
    public var amount: Int64
    /// How much has been cancelled (refunded) so far.
    public var cancelledAmount: Int64
    public var status: Status
    /// Why the payment failed, when it did.
    public var failureReason: String?
    /// The last four digits of the card, when one was used.
    public var cardLast4: String?
    public var paidAt: Date?
    public var cancelledAt: Date?
    /// When the attempt was made (prepared, or opened in the payment window): the time the
    /// listing by status filters on.
    public var startedAt: Date = Date(timeIntervalSince1970: 0)
    /// When the attempt failed, when it did.
    public var failedAt: Date?

    /// What can still be cancelled.
    public var cancellableAmount: Int64 { status == .paid ? amount - cancelledAmount : 0 }
}

/// An amount registered with `POST /payments/prepare`: what the buyer's payment for the merchant
/// UID must come to. It is not a payment; one appears when the buyer opens the payment window.
public struct PGPrepared: Sendable, Hashable {
    public var merchantUID: String
    public var amount: Int64
    public var preparedAt: Date
}

/// One cancellation (full or partial) of a payment.
public struct PGCancellation: Sendable, Hashable {
    /// The PG's id of this cancellation (v1's `cancellation_id`), e.g. `cancel_17`.
    public var cancellationID: String
    public var impUID: String
    public var amount: Int64
    public var reason: String
    public var cancelledAt: Date
}

/// A simulator call from Swift (not over HTTP) that failed.
public enum PGSimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The merchant UID is already paid.
    case alreadyPaid(merchantUID: String)
    /// The amount is not positive.
    case invalidAmount(Int64)
    /// The simulator's state file failed.
    case storage(String)

    public var description: String {
        switch self {
        case let .alreadyPaid(merchantUID): "\(merchantUID) is already paid"
        case let .invalidAmount(amount): "invalid amount \(amount)"
        case let .storage(message): "simulator storage failed: \(message)"
        }
    }
}
