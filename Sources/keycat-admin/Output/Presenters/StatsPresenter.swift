import Foundation
import KeyCat

/// How a ``SalesReport`` looks: four tables with a text bar each, or one snake_case object.
enum StatsPresenter {
    /// The widest bar, in characters.
    static let barWidth = 24

    /// A bar of `█` for `value`, scaled so that `maximum` fills ``barWidth``; any non-zero value
    /// shows at least one block.
    static func bar(_ value: Int64, of maximum: Int64) -> String {
        guard value > 0, maximum > 0 else { return "" }
        let length = max(1, Int((Double(value) / Double(maximum) * Double(barWidth)).rounded()))
        return String(repeating: "█", count: min(barWidth, length))
    }

    static func json(_ report: SalesReport) -> JSONValue {
        .object([
            ("seller_id", report.seller.map { JSONValue.int($0.rawValue) } ?? .null),
            ("time_zone", .string(report.timeZone.identifier)),
            ("first_day", .string(report.firstDay.description)),
            ("last_day", .string(report.lastDay.description)),
            ("total_sales", .int(report.totalSales.won)),
            ("total_refunds", .int(report.totalRefunds.won)),
            ("days", .array(report.days.map { day in
                .object([
                    ("day", .string(day.day.description)), ("orders_paid", .int(day.ordersPaid)),
                    ("sales", .int(day.sales.won)), ("refund_count", .int(day.refundCount)),
                    ("refunds", .int(day.refunds.won)), ("net", .int(day.net.won)),
                ])
            })),
            ("orders_by_status", .array(report.ordersByStatus.map { entry in
                .object([("status", .string(entry.status.rawValue)), ("count", .int(entry.count))])
            })),
            ("top_by_revenue", .array(report.topByRevenue.map { product in
                .object([
                    ("product_id", .int(product.productID.rawValue)), ("title", .string(product.title)),
                    ("units_sold", .int(product.unitsSold)), ("revenue", .int(product.revenue.won)),
                ])
            })),
            ("top_by_rating", .array(report.topByRating.map { product in
                .object([
                    ("product_id", .int(product.productID.rawValue)), ("title", .string(product.title)),
                    ("rating_count", .int(product.ratingCount)),
                    ("average_rating", .double((product.average * 100).rounded() / 100)),
                ])
            })),
        ])
    }

    /// The human report. Days without sales or refunds are left out of the table (the JSON has
    /// every day) and counted in the heading.
    static func text(_ report: SalesReport) -> String {
        let active = report.days.filter { $0.ordersPaid > 0 || $0.refundCount > 0 }
        let maxSales = report.days.map(\.sales.won).max() ?? 0
        var text = (report.seller.map { "Seller \($0)'s share: their lines and delivery fees, their parcels' orders, their products.\n" } ?? "")
            + "Sales and refunds per day, \(report.firstDay) to \(report.lastDay) (\(report.timeZone.identifier)): "
            + "\(active.count) of \(report.days.count) days had any.\n"
        var days = TextTable(["DAY", "ORDERS", "SALES", "REFUNDS", "NET", "SALES BAR"])
        for day in active {
            days.append([day.day.description, String(day.ordersPaid), day.sales.description, day.refunds.description,
                         day.net.description, bar(day.sales.won, of: maxSales)])
        }
        days.append(["total", String(report.days.reduce(0) { $0 + $1.ordersPaid }), report.totalSales.description,
                     report.totalRefunds.description, Money(won: report.totalSales.won - report.totalRefunds.won).description, ""])
        text += days.rendered()

        let maxCount = Int64(report.ordersByStatus.map(\.count).max() ?? 0)
        var statuses = TextTable(["STATUS", "ORDERS", ""])
        for entry in report.ordersByStatus where entry.count > 0 {
            statuses.append([entry.status.rawValue, String(entry.count), bar(Int64(entry.count), of: maxCount)])
        }
        text += "\nOrders created in the window, by status now:\n"
            + (statuses.rows.isEmpty ? "(no orders)\n" : statuses.rendered())

        let maxRevenue = report.topByRevenue.first?.revenue.won ?? 0
        var revenue = TextTable(["#", "PRODUCT", "UNITS", "REVENUE", "", "TITLE"])
        for (rank, product) in report.topByRevenue.enumerated() {
            revenue.append([String(rank + 1), String(product.productID.rawValue), String(product.unitsSold),
                            product.revenue.description, bar(product.revenue.won, of: maxRevenue), product.title])
        }
        text += "\nTop products by revenue (orders paid in the window, before refunds):\n"
            + (revenue.rows.isEmpty ? "(no sales)\n" : revenue.rendered())

        var rating = TextTable(["#", "PRODUCT", "REVIEWS", "AVERAGE", "", "TITLE"])
        for (rank, product) in report.topByRating.enumerated() {
            rating.append([String(rank + 1), String(product.productID.rawValue), String(product.ratingCount),
                           String(format: "%.2f", product.average), bar(Int64(product.average * 100), of: 500), product.title])
        }
        text += "\nTop products by rating (all time, listed products with reviews):\n"
            + (rating.rows.isEmpty ? "(no reviews)\n" : rating.rendered())
        return text
    }
}
