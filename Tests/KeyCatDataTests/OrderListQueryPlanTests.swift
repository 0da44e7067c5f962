import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's `EXPLAIN QUERY PLAN`. Every filter of the order list reads an index in
/// the list's own order, so a page never sorts (no temporary B-tree) and stops at its limit.
@Suite("The order list reads an index in its order, whatever the filter")
struct OrderListQueryPlanTests {
    static let from = Date(timeIntervalSince1970: 1_790_000_000)
    static let before = Date(timeIntervalSince1970: 1_790_086_400)
    static let position = CursorPosition(sortKey: 1_790_000_500_000, id: 40)

    /// (what is filtered, the filter, the index the plan must search)
    static let cases: [(String, OrderFilter, String)] = [
        ("nothing", OrderFilter(), "orders_newest"),
        ("window", OrderFilter(placedFrom: from, placedBefore: before), "orders_newest"),
        ("status", OrderFilter(status: .paid), "orders_by_status"),
        ("status and window", OrderFilter(status: .paid, placedFrom: from, placedBefore: before), "orders_by_status"),
        ("buyer", OrderFilter(buyerID: UserID(7)), "orders_by_buyer"),
        ("seller", OrderFilter(sellerID: UserID(3)), "shipments_by_seller"),
        ("seller and window", OrderFilter(sellerID: UserID(3), placedFrom: from, placedBefore: before), "shipments_by_seller"),
        ("seller, status and window", OrderFilter(status: .paid, sellerID: UserID(3), placedFrom: from), "shipments_by_seller"),
    ]

    @Test("each filter searches its index, without sorting, on the first page and past a cursor", arguments: cases)
    func plan(_ example: (String, OrderFilter, String)) throws {
        let (name, filter, index) = example
        try withTemporaryDirectory { directory throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("plan.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            for position in [nil, Self.position] {
                let (sql, arguments) = SQLOrderRepository<SQLiteDatabase>.listSQL(filter, after: position)
                let plan = try database.blockingRead { connection in
                    try connection.query("EXPLAIN QUERY PLAN " + sql, arguments + [.int(21)]) { $0.string(3) }
                }
                let text = plan.joined(separator: " | ")
                // Past a cursor even the unfiltered list seeks: the bound on the time ends its range.
                #expect(plan.first?.contains("SEARCH") == true || filter == OrderFilter() && position == nil, "\(name): \(text)")
                #expect(plan.first?.contains(index) == true, "\(name): \(text)")
                #expect(!text.contains("TEMP B-TREE"), "\(name): \(text)")
                if filter.sellerID != nil {
                    // The parcel's order is read by its key, not by scanning orders.
                    #expect(plan.count == 2 && plan[1].contains("INTEGER PRIMARY KEY"), "\(name): \(text)")
                }
            }
        }
    }
}
