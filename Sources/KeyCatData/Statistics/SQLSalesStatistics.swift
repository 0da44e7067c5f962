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

    // One seller's share. Sales and refunds come from the settlement ledger — the seller's
    // lines and fees, each entry when its payment or refund happened — through
    // `settlement_entries_by_seller`; the orders are those holding the seller's parcels, through
    // `shipments_by_seller`; the products the seller's own. The seller is the last parameter.

    /// A seller's orders paid per day, and what of them was the seller's.
    static var sellerSalesSQL: String {
        """
        SELECT (occurred_at + ?1) / 86400000 AS day, count(DISTINCT order_id), sum(amount) FROM settlement_entries
        WHERE seller_id = ?4 AND kind = 'sale' AND occurred_at >= ?2 AND occurred_at < ?3
        GROUP BY day ORDER BY day
        """
    }

    /// Refunds that gave back something of a seller's per day, and how much of theirs.
    static var sellerRefundsSQL: String {
        """
        SELECT (occurred_at + ?1) / 86400000 AS day, count(DISTINCT refund_id), sum(amount) FROM settlement_entries
        WHERE seller_id = ?4 AND kind = 'refund' AND occurred_at >= ?2 AND occurred_at < ?3
        GROUP BY day ORDER BY day
        """
    }

    /// Orders created in the window holding a seller's parcel, by status.
    static var sellerStatusSQL: String {
        """
        SELECT o.status, count(*) FROM shipments s JOIN orders o ON o.id = s.order_id
        WHERE s.seller_id = ?3 AND s.created_at >= ?1 AND s.created_at < ?2
        GROUP BY o.status
        """
    }

    /// Revenue per product of a seller's, from their lines paid in the window.
    static var sellerRevenueSQL: String {
        """
        SELECT l.product_id, p.title, sum(l.quantity), sum(e.amount) AS revenue
        FROM settlement_entries e
        JOIN order_lines l ON l.order_id = e.order_id AND l.line = e.line
        JOIN products p ON p.id = l.product_id
        WHERE e.seller_id = ?4 AND e.kind = 'sale' AND e.line IS NOT NULL AND e.occurred_at >= ?1 AND e.occurred_at < ?2
        GROUP BY l.product_id, p.title ORDER BY revenue DESC, l.product_id LIMIT ?3
        """
    }

    /// A seller's best-rated listed products: `products_seller_rating` read from the top.
    static var sellerRatingSQL: String {
        """
        SELECT id, title, rating_count, rating_sum FROM products
        WHERE seller_id = ?2 AND listed = 1 AND rating_count > 0
        ORDER BY rating_score DESC, id DESC LIMIT ?1
        """
    }

    package func figures(_ query: SalesStatisticsQuery) async throws(KeyCatError) -> SalesFigures {
        let offset = SQLValue.integer(Int64(query.utcOffsetSeconds) * 1000)
        let start = StoredTime.value(query.start), end = StoredTime.value(query.end)
        let seller = query.seller.map { [SQLValue.integer($0.rawValue)] } ?? []
        let mine = query.seller != nil
        return try await storage {
            try await database.read { connection in
                func days(_ sql: String) throws -> [DayTotals] {
                    try connection.query(sql, [offset, start, end] + seller) { row in
                        DayTotals(day: row.int64(0), count: row.int(1), amount: Money(won: row.int64(2)))
                    }
                }
                var statuses: [OrderStatus: Int] = [:]
                try connection.forEach(mine ? Self.sellerStatusSQL : Self.statusSQL, [start, end] + seller) { row in
                    if let status = OrderStatus(rawValue: row.string(0)) { statuses[status] = row.int(1) }
                }
                let revenue = try connection.query(mine ? Self.sellerRevenueSQL : Self.revenueSQL,
                                                   [start, end, .int(query.topLimit)] + seller) { row in
                    ProductRevenue(productID: ProductID(row.int64(0)), title: row.string(1), unitsSold: row.int(2),
                                   revenue: Money(won: row.int64(3)))
                }
                let rating = try connection.query(mine ? Self.sellerRatingSQL : Self.ratingSQL, [.int(query.topLimit)] + seller) { row in
                    ProductRating(productID: ProductID(row.int64(0)), title: row.string(1), ratingCount: row.int(2),
                                  ratingSum: row.int(3))
                }
                return SalesFigures(sales: try days(mine ? Self.sellerSalesSQL : Self.salesSQL),
                                    refunds: try days(mine ? Self.sellerRefundsSQL : Self.refundsSQL),
                                    ordersByStatus: statuses, topByRevenue: revenue, topByRating: rating)
            }
        }
    }
}
