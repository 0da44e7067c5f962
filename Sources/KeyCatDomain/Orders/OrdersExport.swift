import Foundation

/// The orders, payments and refunds of a period, for accounting: each record falls in the period
/// by its own time (an order by when it was placed, a payment by when it was recorded, a refund by
/// when it was asked for), so consecutive periods never count a record twice.
public struct OrdersExport: Sendable, Hashable {
    /// The period's start, included.
    public var since: Date
    /// The period's end, excluded.
    public var until: Date
    /// Orders placed in the period, oldest first, with their lines.
    public var orders: [Order]
    /// Payments recorded in the period, oldest first.
    public var payments: [OrderPayment]
    /// Refunds asked for in the period, oldest first, whatever became of them.
    public var refunds: [Refund]

    public init(since: Date, until: Date, orders: [Order], payments: [OrderPayment], refunds: [Refund]) {
        self.since = since
        self.until = until
        self.orders = orders
        self.payments = payments
        self.refunds = refunds
    }
}
