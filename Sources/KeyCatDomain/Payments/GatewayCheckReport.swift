import Foundation

/// What cross-checking KeyCat's orders against the PG's payments found (`db check --gateway`).
public struct GatewayCheckReport: Sendable, Hashable, Codable {
    /// The window of payment start (and order creation) times checked.
    public var from: Date
    public var to: Date
    /// Payments the PG listed in the window, of any status.
    public var gatewayPaymentsChecked = 0
    /// KeyCat orders holding (or having held) a payment, created in the window.
    public var ordersChecked = 0
    /// Payments paid at the PG that no order of KeyCat's is paid by.
    public var orphans: [GatewayOrphan] = []
    /// Every problem as a sentence, orphans included.
    public var problems: [String] = []

    public init(from: Date, to: Date) {
        self.from = from
        self.to = to
    }

    /// No problem found.
    public var isClean: Bool { problems.isEmpty }
    /// What the orphans hold, in all.
    public var orphanAmount: Money { Money(won: orphans.reduce(0) { $0 + $1.amount.won }) }
}
