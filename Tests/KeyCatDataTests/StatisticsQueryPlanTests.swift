import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's `EXPLAIN QUERY PLAN`.
@Suite("Every statistics query starts from an index on its window")
struct StatisticsQueryPlanTests {
    static let queries: [(name: String, sql: String, arguments: [SQLValue], index: String)] = [
        ("sales per day", SQLSalesStatistics<SQLiteDatabase>.salesSQL, [.integer(0), .integer(0), .integer(1)], "orders_paid"),
        ("refunds per day", SQLSalesStatistics<SQLiteDatabase>.refundsSQL, [.integer(0), .integer(0), .integer(1)], "refunds_done"),
        ("orders by status", SQLSalesStatistics<SQLiteDatabase>.statusSQL, [.integer(0), .integer(1)], "orders_by_status"),
        ("top by revenue", SQLSalesStatistics<SQLiteDatabase>.revenueSQL, [.integer(0), .integer(1), .integer(5)], "orders_paid"),
        ("top by rating", SQLSalesStatistics<SQLiteDatabase>.ratingSQL, [.integer(5)], "products_rating"),
        ("a seller's sales per day", SQLSalesStatistics<SQLiteDatabase>.sellerSalesSQL, [.integer(0), .integer(0), .integer(1), .integer(2)],
         "settlement_entries_by_seller"),
        ("a seller's refunds per day", SQLSalesStatistics<SQLiteDatabase>.sellerRefundsSQL, [.integer(0), .integer(0), .integer(1), .integer(2)],
         "settlement_entries_by_seller"),
        ("a seller's orders by status", SQLSalesStatistics<SQLiteDatabase>.sellerStatusSQL, [.integer(0), .integer(1), .integer(2)],
         "shipments_by_seller"),
        ("a seller's top by revenue", SQLSalesStatistics<SQLiteDatabase>.sellerRevenueSQL, [.integer(0), .integer(1), .integer(5), .integer(2)],
         "settlement_entries_by_seller"),
        ("a seller's top by rating", SQLSalesStatistics<SQLiteDatabase>.sellerRatingSQL, [.integer(5), .integer(2)], "products_seller_rating"),
    ]

    @Test("each query searches its index rather than scanning a table")
    func plans() throws {
        try withTemporaryDirectory { directory throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("plan.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            for query in Self.queries {
                let plan = try database.blockingRead { connection in
                    try connection.query("EXPLAIN QUERY PLAN " + query.sql, query.arguments) { $0.string(3) }
                }
                let text = plan.joined(separator: " | ")
                #expect(text.contains(query.index), "\(query.name) does not use \(query.index): \(text)")
                // A bare table scan reads every row; "SCAN … USING INDEX" (the rating list read from
                // the top of its index under a LIMIT) does not.
                for step in plan where step.hasPrefix("SCAN") {
                    #expect(step.contains("USING"), "\(query.name) scans a table: \(text)")
                }
            }
        }
    }
}
