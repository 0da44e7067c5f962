import Foundation
import KeyCat

/// The operators' routes that `keycat-admin` had alone until the admin console needed them over
/// HTTP: sales statistics, an account's suspension and role, closing a settlement month, and
/// reading the audit log.
/// Each calls the same use case as the CLI (the rules and the audit log are the domain's).
enum AdminRoutes {
    static let routes: [Route] = [
        Route(.get, "/statistics/sales", .admin, query: ["days", "seller_id"]) { context in
            let days = try context.integer("days").map { Int(clamping: $0) } ?? 30
            let seller = try context.integer("seller_id").map(UserID.init)
            let report = try await context.keycat.statistics.report(days: days, top: 5, seller: seller, by: context.principal())
            return .json(SalesReportBody(report))
        },
        Route(.post, "/users/{id}/suspend", .admin) { context in
            await .json(UserBody(try context.keycat.accounts.suspend(context.id(), by: context.principal())))
        },
        Route(.post, "/users/{id}/reinstate", .admin) { context in
            await .json(UserBody(try context.keycat.accounts.reinstate(context.id(), by: context.principal())))
        },
        Route(.put, "/users/{id}/role", .admin, body: .jsonDefault) { context in
            let role = try context.json(RoleBody.self).role
            guard let role = Role(rawValue: role) else {
                throw KeyCatError.validation("role", "role must be one of \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return await .json(UserBody(try context.keycat.accounts.setRole(context.id(), to: role, by: context.principal())))
        },
        Route(.post, "/settlements/close", .admin, body: .jsonDefault) { context in
            let body = try context.json(SettlementCloseBody.self)
            let period = try SettlementPeriod(body.period)
            let dryRun = body.dryRun ?? false
            let settlements = try await context.keycat.settlements.close(period, dryRun: dryRun, by: context.principal())
            return .json(SettlementCloseResultBody(period: period.description, dryRun: dryRun, items: settlements.map { SettlementBody($0) }))
        },
        Route(.get, "/audit", .admin, query: pageQuery + ["actor", "action", "target"]) { context in
            let filter = AuditFilter(actor: try context.query("actor"), action: try context.query("action"),
                                     target: try context.query("target"))
            let page = try await context.keycat.audit.list(filter, limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, AuditEntryBody.init))
        },
    ]
}

/// One audit log entry: who (`admin:3`, `cli:root`), did what (`order.refund`), to what
/// (`order:42`), with what detail, when.
struct AuditEntryBody: Encodable, Sendable {
    var id: Int64
    var actor: String
    var action: String
    var target: String
    var detail: String
    var at: Date

    init(_ entry: AuditEntry) {
        id = entry.id ?? 0
        actor = entry.actor
        action = entry.action
        target = entry.target
        detail = entry.detail
        at = entry.at
    }
}

/// `{"role": "seller"}`.
struct RoleBody: Decodable, Sendable {
    var role: String
}

/// `{"period": "2026-10", "dry_run": true}`: a month to close, or with `dry_run` only to show.
struct SettlementCloseBody: Decodable, Sendable {
    var period: String
    var dryRun: Bool?

    enum CodingKeys: String, CodingKey { case period, dryRun = "dry_run" }
}

/// What closing a month made (or, in a dry run, would make): one settlement per seller.
struct SettlementCloseResultBody: Encodable, Sendable {
    var period: String
    var dryRun: Bool
    var items: [SettlementBody]

    enum CodingKeys: String, CodingKey { case period, dryRun = "dry_run", items }
}

/// The sales report over HTTP: every day of the window in Korean time, oldest first, orders
/// created in the window by status, and the window's totals.
struct SalesReportBody: Encodable, Sendable {
    struct Day: Encodable, Sendable {
        /// `YYYY-MM-DD`, a calendar day in `Asia/Seoul`.
        var day: String
        var ordersPaid: Int
        var sales: Int64
        var refundCount: Int
        var refunds: Int64

        enum CodingKeys: String, CodingKey { case day, ordersPaid = "orders_paid", sales, refundCount = "refund_count", refunds }
    }

    struct StatusCount: Encodable, Sendable {
        var status: String
        var count: Int
    }

    var timeZone: String
    var days: [Day]
    var ordersByStatus: [StatusCount]
    var totalSales: Int64
    var totalRefunds: Int64
    var sellerID: Int64?

    enum CodingKeys: String, CodingKey {
        case timeZone = "time_zone", days, ordersByStatus = "orders_by_status", totalSales = "total_sales"
        case totalRefunds = "total_refunds", sellerID = "seller_id"
    }

    init(_ report: SalesReport) {
        timeZone = report.timeZone.identifier
        days = report.days.map {
            Day(day: $0.day.description, ordersPaid: $0.ordersPaid, sales: $0.sales.won, refundCount: $0.refundCount, refunds: $0.refunds.won)
        }
        ordersByStatus = report.ordersByStatus.map { StatusCount(status: $0.status.rawValue, count: $0.count) }
        totalSales = report.totalSales.won
        totalRefunds = report.totalRefunds.won
        sellerID = report.seller?.rawValue
    }
}
