import Foundation

/// What the statistics port is asked: a window of time, the zone's offset from UTC, and how many
/// products each top list holds.
public struct SalesStatisticsQuery: Sendable, Hashable {
    /// The first instant counted (midnight of the first day, in the business's zone).
    public var start: Date
    /// The first instant not counted (midnight after the last day).
    public var end: Date
    /// Seconds the business's zone is ahead of UTC, used to cut the window into calendar days.
    public var utcOffsetSeconds: Int
    /// How many products each top list holds.
    public var topLimit: Int
    /// One seller's share of the shop: their lines and delivery fees (from the settlement
    /// ledger, so orders paid before it are not counted), the orders holding their parcels, and
    /// their products. Nil: the whole shop.
    public var seller: UserID?

    public init(start: Date, end: Date, utcOffsetSeconds: Int, topLimit: Int, seller: UserID? = nil) {
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.topLimit = topLimit
        self.seller = seller
    }
}

/// One day's totals as the port reports them: `day` counts calendar days since 1970-01-01 in
/// the business's zone.
public struct DayTotals: Sendable, Hashable {
    public var day: Int64
    public var count: Int
    public var amount: Money

    public init(day: Int64, count: Int, amount: Money) {
        self.day = day
        self.count = count
        self.amount = amount
    }
}

/// A product's takings in the window, before refunds (refunds are made per order, not per line).
public struct ProductRevenue: Sendable, Hashable {
    public var productID: ProductID
    public var title: String
    public var unitsSold: Int
    public var revenue: Money

    public init(productID: ProductID, title: String, unitsSold: Int, revenue: Money) {
        self.productID = productID
        self.title = title
        self.unitsSold = unitsSold
        self.revenue = revenue
    }
}

/// A product's rating, from the counters its reviews keep.
public struct ProductRating: Sendable, Hashable {
    public var productID: ProductID
    public var title: String
    public var ratingCount: Int
    public var ratingSum: Int

    /// The average of its ratings, 1–5.
    public var average: Double { ratingCount == 0 ? 0 : Double(ratingSum) / Double(ratingCount) }

    public init(productID: ProductID, title: String, ratingCount: Int, ratingSum: Int) {
        self.productID = productID
        self.title = title
        self.ratingCount = ratingCount
        self.ratingSum = ratingSum
    }
}

/// Everything the port reads for one report, from one consistent snapshot.
public struct SalesFigures: Sendable, Hashable {
    /// Orders paid, and what they were paid, per day they were paid. Days without any are absent.
    public var sales: [DayTotals]
    /// Refunds completed, and their amounts, per day they completed. Days without any are absent.
    public var refunds: [DayTotals]
    /// Orders created in the window, by their status now. Statuses without any are absent.
    public var ordersByStatus: [OrderStatus: Int]
    /// Products by revenue from orders paid in the window, highest first.
    public var topByRevenue: [ProductRevenue]
    /// Listed products with at least one review by average rating (all time), highest first.
    public var topByRating: [ProductRating]

    public init(sales: [DayTotals], refunds: [DayTotals], ordersByStatus: [OrderStatus: Int],
                topByRevenue: [ProductRevenue], topByRating: [ProductRating]) {
        self.sales = sales
        self.refunds = refunds
        self.ordersByStatus = ordersByStatus
        self.topByRevenue = topByRevenue
        self.topByRating = topByRating
    }
}

/// The port behind ``StatisticsService``: reads the figures for a window in one snapshot.
public protocol SalesStatistics: Sendable {
    func figures(_ query: SalesStatisticsQuery) async throws(KeyCatError) -> SalesFigures
}
