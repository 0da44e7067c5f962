import Foundation

/// One calendar day of the report (in the business's zone).
public struct DailySales: Sendable, Hashable {
    public var day: CalendarDate
    /// Orders paid that day.
    public var ordersPaid: Int
    /// What those orders were paid (before any refund).
    public var sales: Money
    /// Refunds completed that day.
    public var refundCount: Int
    /// What those refunds gave back (of orders paid any day).
    public var refunds: Money
    /// Sales less refunds (negative on a day that refunded more than it sold).
    public var net: Money { Money(won: sales.won - refunds.won) }
}

/// The operators' statistics: sales and refunds per day, orders by status, and the top products.
public struct SalesReport: Sendable, Hashable {
    /// The zone the days are calendar days of (`Asia/Seoul`).
    public var timeZone: TimeZone
    /// Every day of the window, oldest first, including days without sales.
    public var days: [DailySales]
    /// Orders created in the window, by their status now; every status, zeros included, in
    /// the order of ``OrderStatus/allCases``.
    public var ordersByStatus: [OrderStatusCount]
    /// Products by revenue from orders paid in the window, highest first.
    public var topByRevenue: [ProductRevenue]
    /// Listed products by average rating (all time, at least one review), highest first.
    public var topByRating: [ProductRating]
    /// The seller the report is limited to; nil for the whole shop. A seller's sales are their
    /// lines and delivery fees, their refunds what refunds gave back of those, and their orders
    /// the ones holding their parcels.
    public var seller: UserID? = nil

    /// The first and last day of the window.
    public var firstDay: CalendarDate { days.first!.day }
    public var lastDay: CalendarDate { days.last!.day }
    /// Totals over the window.
    public var totalSales: Money { Money(won: days.reduce(0) { $0 + $1.sales.won }) }
    public var totalRefunds: Money { Money(won: days.reduce(0) { $0 + $1.refunds.won }) }
}

/// How many orders have one status.
public struct OrderStatusCount: Sendable, Hashable {
    public var status: OrderStatus
    public var count: Int
}
