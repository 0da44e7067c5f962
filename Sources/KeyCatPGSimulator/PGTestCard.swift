/// The card numbers the simulator's payment window understands, and what each does.
///
/// Any other number is declined as an invalid card. Numbers may be grouped with spaces or dashes.
public enum PGTestCard: String, Sendable, Hashable, CaseIterable {
    /// Always approved.
    case success = "4242424242424242"
    /// Declined by the issuer.
    case declined = "4000000000000002"
    /// Declined: insufficient funds.
    case insufficientFunds = "4000000000009995"
    /// Declined: the card has expired.
    case expiredCard = "4000000000000069"
    /// The PG failed while processing: the payment fails.
    case processingError = "4000000000000119"

    /// The card number to type into the payment window.
    public var number: String { rawValue }

    /// The failure reason the payment records, or nil for the card that succeeds.
    public var failureReason: String? {
        switch self {
        case .success: nil
        case .declined: "card declined by the issuer"
        case .insufficientFunds: "insufficient funds"
        case .expiredCard: "the card has expired"
        case .processingError: "processing error at the card company"
        }
    }

    /// The test card `number` stands for, ignoring spaces and dashes.
    public init?(number: String) {
        self.init(rawValue: number.filter(\.isNumber))
    }
}
