/// An amount of money in Korean won (KRW has no minor unit), as a 64-bit integer.
///
/// Every amount KeyCat keeps is in ``currency``; a payment the gateway reports in another is
/// refused (``PaymentGateway``).
///
/// Arithmetic is overflow-checked: `+`, `-` and `*` throw a validation error instead of wrapping
/// or trapping, so a crafted quantity can never turn a price negative.
public struct Money: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The amount in won.
    public let won: Int64

    public init(won: Int64) { self.won = won }

    public static let zero = Money(won: 0)

    /// The currency of every amount, ISO 4217.
    public static let currency = "KRW"

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.won < rhs.won }

    public static func + (lhs: Money, rhs: Money) throws(KeyCatError) -> Money {
        let (sum, overflow) = lhs.won.addingReportingOverflow(rhs.won)
        guard !overflow else { throw overflowError }
        return Money(won: sum)
    }

    public static func - (lhs: Money, rhs: Money) throws(KeyCatError) -> Money {
        let (difference, overflow) = lhs.won.subtractingReportingOverflow(rhs.won)
        guard !overflow else { throw overflowError }
        return Money(won: difference)
    }

    public static func * (lhs: Money, quantity: Int) throws(KeyCatError) -> Money {
        let (product, overflow) = lhs.won.multipliedReportingOverflow(by: Int64(quantity))
        guard !overflow else { throw overflowError }
        return Money(won: product)
    }

    /// The sum of `amounts`, overflow-checked.
    public static func sum(_ amounts: some Sequence<Money>) throws(KeyCatError) -> Money {
        var total = Money.zero
        for amount in amounts { total = try total + amount }
        return total
    }

    private static var overflowError: KeyCatError {
        KeyCatError.validation("amount", "the amount is too large")
    }

    public init(from decoder: any Decoder) throws {
        won = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(won)
    }

    /// `"₩129,000"`.
    public var description: String {
        let digits = String(won.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (won < 0 ? "-₩" : "₩") + grouped
    }
}
