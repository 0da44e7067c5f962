/// What a seller's unsettled entries add up to, by the rule closing a period uses: sales and
/// delivery fees in, refunds out, the commission each sale line and fee carries less what each
/// refund gives back.
public struct SettlementTally: Sendable, Hashable {
    public var sales: Int64 = 0
    public var deliveryFees: Int64 = 0
    public var refunds: Int64 = 0
    public var commission: Int64 = 0
    public var entryCount = 0

    public init() {}

    /// `sales + deliveryFees − refunds − commission`.
    public var payout: Int64 { sales + deliveryFees - refunds - commission }

    /// Counts `entry` in and returns the commission it carries under `policy` (positive for a
    /// sale, and the amount a refund gives back, also positive).
    @discardableResult
    public mutating func add(_ entry: SettlementEntry, policy: CommissionPolicy) -> Int64 {
        add(entry, commission: policy.commission(on: entry.amount.won, category: entry.category))
    }

    /// Counts `entry` in with the commission it carries, and returns it: a refund whose sale an
    /// earlier close already settled gives back what that sale was charged, in proportion
    /// (``commission(givenBackBy:ofSale:charged:)``), whatever the rate is now.
    @discardableResult
    public mutating func add(_ entry: SettlementEntry, policy: CommissionPolicy, settledSale: (amount: Int64, commission: Int64)?) -> Int64 {
        guard entry.kind == .refund, let sale = settledSale, sale.amount > 0 else { return add(entry, policy: policy) }
        return add(entry, commission: Self.commission(givenBackBy: entry.amount.won, ofSale: sale.amount, charged: sale.commission))
    }

    /// The commission a refund of `refund` won gives back of a sale of `sale` won that was
    /// charged `commission`: `commission × refund / sale`, rounded down, so refunds of a sale in
    /// parts never give back more than it was charged.
    /// The product is taken at full width: a line of ₩9.9 billion (99 × the highest price)
    /// charged ₩990 million, refunded whole, multiplies past `Int64`.
    public static func commission(givenBackBy refund: Int64, ofSale sale: Int64, charged commission: Int64) -> Int64 {
        guard sale > 0, refund > 0, commission > 0 else { return 0 }
        // A refund never exceeds its sale; were it to, the whole commission is what goes back.
        let refund = min(refund, sale)
        let product = commission.multipliedFullWidth(by: refund)
        return sale.dividingFullWidth((high: product.high, low: product.low)).quotient
    }

    private mutating func add(_ entry: SettlementEntry, commission: Int64) -> Int64 {
        switch (entry.kind, entry.line) {
        case (.sale, .some): sales += entry.amount.won; self.commission += commission
        case (.sale, nil): deliveryFees += entry.amount.won; self.commission += commission
        case (.refund, _): refunds += entry.amount.won; self.commission -= commission
        }
        entryCount += 1
        return commission
    }
}
