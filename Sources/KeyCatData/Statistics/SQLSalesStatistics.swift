import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// ``SalesStatistics`` over KeyCat's tables, every figure read in one snapshot.
///
/// Each query starts from an index range on the window (migration 6's `orders_paid` and
/// `refunds_done`, and `orders_by_status`), so the cost follows the orders in the window, not
/// the size of the shop; `StatisticsQueryPlanTests` holds them to it. Grouping by day happens
/// in SQL on `(time + offset) / 86,400,000`: times are Unix milliseconds.
package struct SQLSalesStatistics<Database: SQLDatabase>: SalesStatistics {
    private let database: Database

    package init(database: Database) { self.database = database }

    /// Orders paid per day. `status <> 'failed'` leaves out a forged payment, which the PG
    /// cancelled at once; a paid order refunded later still counts as sold the day it was paid.
    static var salesSQL: String {
        """
        SELECT (paid_at + ?1) / 86400000 AS day, count(*), sum(amount) FROM orders
        WHERE paid_at >= ?2 AND paid_at < ?3 AND status <> 'failed'
        GROUP BY day ORDER BY day
        """
    }

    /// Refunds completed per day (a refund's `updated_at` is when it completed).
    static var refundsSQL: String {
        """
        SELECT (updated_at + ?1) / 86400000 AS day, count(*), sum(amount) FROM refunds
        WHERE status = 'done' AND updated_at >= ?2 AND updated_at < ?3
        GROUP BY day ORDER BY day
        """
    }

    /// Orders created in the window by status: one range of `orders_by_status` per status.
    static var statusSQL: String {
        """
        SELECT status, count(*) FROM orders
        WHERE status IN (\(OrderStatus.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
          AND created_at >= ?1 AND created_at < ?2
        GROUP BY status
        """
    }

    /// Revenue per product from the lines of orders paid in the window.
    static var revenueSQL: String {
        """
        SELECT l.product_id, p.title, sum(l.quantity), sum(l.unit_price * l.quantity) AS revenue
        FROM orders o
        JOIN order_lines l ON l.order_id = o.id
        JOIN products p ON p.id = l.product_id
        WHERE o.paid_at >= ?1 AND o.paid_at < ?2 AND o.status <> 'failed'
        GROUP BY l.product_id, p.title ORDER BY revenue DESC, l.product_id LIMIT ?3
        """
    }

    /// The best-rated listed products: the `products_rating` index read from the top.
    static var ratingSQL: String {
        """
        SELECT id, title, rating_count, rating_sum FROM products
        WHERE listed = 1 AND rating_count > 0
        ORDER BY rating_score DESC, id DESC LIMIT ?1
        """
    }

    package func figures(_ query: SalesStatisticsQuery) throws(KeyCatError) -> SalesFigures {
        let offset = SQLValue.integer(Int64(query.utcOffsetSeconds) * 1000)
        let start = StoredTime.value(query.start), end = StoredTime.value(query.end)
        return try storage {
            try database.read { connection in
                func days(_ sql: String) throws -> [DayTotals] {
                    try connection.query(sql, [offset, start, end]) { row in
                        DayTotals(day: row.int64(0), count: row.int(1), amount: Money(won: row.int64(2)))
                    }
                }
                var statuses: [OrderStatus: Int] = [:]
                try connection.forEach(Self.statusSQL, [start, end]) { row in
                    if let status = OrderStatus(rawValue: row.string(0)) { statuses[status] = row.int(1) }
                }
                let revenue = try connection.query(Self.revenueSQL, [start, end, .int(query.topLimit)]) { row in
                    ProductRevenue(productID: ProductID(row.int64(0)), title: row.string(1), unitsSold: row.int(2),
                                   revenue: Money(won: row.int64(3)))
                }
                let rating = try connection.query(Self.ratingSQL, [.int(query.topLimit)]) { row in
                    ProductRating(productID: ProductID(row.int64(0)), title: row.string(1), ratingCount: row.int(2),
                                  ratingSum: row.int(3))
                }
                return SalesFigures(sales: try days(Self.salesSQL), refunds: try days(Self.refundsSQL),
                                    ordersByStatus: statuses, topByRevenue: revenue, topByRating: rating)
            }
        }
    }
}

/// ``SQLSalesStatistics`` over a SQLite file.
package typealias SQLiteSalesStatistics = SQLSalesStatistics<SQLiteDatabase>
/// ``SQLSalesStatistics`` over a Postgres database.
package typealias PostgresSalesStatistics = SQLSalesStatistics<PostgresDatabase>
