import Foundation

/// What a seller has earned that no closed period has settled yet, as of a moment: the figures
/// the next closes will pay under today's commission, and the entries behind them.
public struct UpcomingSettlement: Sendable, Hashable {
    /// Entries shown with the figures, oldest first; the figures count them all.
    public static let entryLimit = 500

    public var sellerID: UserID
    public var asOf: Date
    /// What the next close pays: the entries whose parcels' receipt was confirmed (or never
    /// will be: cancelled, refunded).
    public var tally: SettlementTally
    /// What waits for purchase confirmation: sales (and their refunds) of parcels not yet
    /// confirmed, which no close takes until they are.
    public var awaitingConfirmation: SettlementTally
    /// The oldest ``entryLimit`` unsettled entries, each with the commission it would carry;
    /// ``payableEntryIDs`` says which are payable.
    public var entries: [SettlementEntry]
    /// The ids of those of ``entries`` that are payable.
    public var payableEntryIDs: Set<Int64>
    /// What the seller owes from their settlements so far, which the next close takes off.
    public var owed: Money

    public init(sellerID: UserID, asOf: Date, tally: SettlementTally, awaitingConfirmation: SettlementTally = SettlementTally(),
                entries: [SettlementEntry], payableEntryIDs: Set<Int64>? = nil, owed: Money = .zero) {
        self.owed = owed
        self.awaitingConfirmation = awaitingConfirmation
        self.payableEntryIDs = payableEntryIDs ?? Set(entries.map(\.id))
        self.sellerID = sellerID
        self.asOf = asOf
        self.tally = tally
        self.entries = entries
    }

    /// What the next close would pay of the payable entries once it takes off what is owed, and
    /// what it would carry forward.
    public var balance: SettlementBalance { SettlementBalance(earned: tally.payout, owed: owed.won) }
}

/// An entry no close took yet, with what the next close counts it by.
public struct UnsettledEntry: Sendable {
    public var entry: SettlementEntry
    /// Whether the next close pays it: its parcel's receipt confirmed, or never to be (only
    /// payable entries enter a settlement).
    public var isPayable: Bool
    /// For a refund of a sale an earlier close settled: that sale's amount and the commission it
    /// was charged, which the refund gives back in proportion.
    public var settledSale: (amount: Int64, commission: Int64)?

    public init(entry: SettlementEntry, isPayable: Bool, settledSale: (amount: Int64, commission: Int64)? = nil) {
        self.entry = entry
        self.isPayable = isPayable
        self.settledSale = settledSale
    }
}
