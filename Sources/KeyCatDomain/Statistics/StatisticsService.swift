import Foundation

/// The operators' sales statistics (`keycat-admin stats`).
///
/// Days are calendar days in `Asia/Seoul`, the business's time zone: a payment at 23:30 UTC on
/// 1 March counts on 2 March. Korea has kept UTC+9 all year since 1988, so every day is
/// 00:00–24:00 at one offset, read from the zone itself.
public struct StatisticsService: Sendable {
    /// The most days one report covers.
    public static let dayRange = 1...365
    /// The business's zone.
    public static let timeZone = TimeZone(identifier: "Asia/Seoul")!

    private let statistics: any SalesStatistics
    private let clock: any WallClock

    public init(statistics: any SalesStatistics, clock: any WallClock) {
        self.statistics = statistics
        self.clock = clock
    }

    /// The last `days` calendar days, today included: per day, orders paid and their amount
    /// (before refunds) and refunds completed; orders created in the window by status; the top
    /// `top` products by revenue in the window and by average rating (all time).
    ///
    /// - Throws: `forbidden` unless an admin asks; `validation` for `days` outside 1–365 or
    ///   `top` outside 1–100.
    public func report(days: Int = 30, top: Int = 5, seller: UserID? = nil, by principal: Principal) async throws(KeyCatError) -> SalesReport {
        try principal.require(.admin, to: "read sales statistics")
        if let seller, seller.rawValue < 1 { throw .validation("seller", "a seller is a positive user id") }
        guard Self.dayRange.contains(days) else {
            throw .validation("days", "days must be between \(Self.dayRange.lowerBound) and \(Self.dayRange.upperBound), got \(days)")
        }
        guard (1...100).contains(top) else { throw .validation("top", "top must be between 1 and 100, got \(top)") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.timeZone
        let today = calendar.startOfDay(for: clock.now())
        guard let start = calendar.date(byAdding: .day, value: -(days - 1), to: today),
              let end = calendar.date(byAdding: .day, value: 1, to: today) else {
            throw KeyCatError(.internalError, "the calendar could not count back \(days) days")
        }
        let offset = Self.timeZone.secondsFromGMT(for: start)
        let figures = try await statistics.figures(
            SalesStatisticsQuery(start: start, end: end, utcOffsetSeconds: offset, topLimit: top, seller: seller))
        let firstDay = Int64((Int(start.timeIntervalSince1970) + offset).quotientRounding(by: 86_400))
        let sales = Dictionary(figures.sales.map { ($0.day, $0) }) { first, _ in first }
        let refunds = Dictionary(figures.refunds.map { ($0.day, $0) }) { first, _ in first }
        var daily: [DailySales] = []
        for index in 0..<days {
            let number = firstDay + Int64(index)
            let date = Date(timeIntervalSince1970: TimeInterval(number * 86_400 - Int64(offset) + 43_200))
            daily.append(DailySales(
                day: CalendarDate(date, in: Self.timeZone),
                ordersPaid: sales[number]?.count ?? 0, sales: sales[number]?.amount ?? .zero,
                refundCount: refunds[number]?.count ?? 0, refunds: refunds[number]?.amount ?? .zero))
        }
        return SalesReport(
            timeZone: Self.timeZone, days: daily,
            ordersByStatus: OrderStatus.allCases.map { OrderStatusCount(status: $0, count: figures.ordersByStatus[$0] ?? 0) },
            topByRevenue: figures.topByRevenue, topByRating: figures.topByRating, seller: seller)
    }
}

private extension Int {
    /// Division rounding towards negative infinity (days before 1970 stay whole days).
    func quotientRounding(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
