import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's `EXPLAIN QUERY PLAN`.
@Suite("Checkout's count of held units reads the open orders, not a product's sales")
struct HoldQueryPlanTests {
    @Test("units held of a product: the orders awaiting payment by their status index, then each one's lines by its key")
    func plan() throws {
        try withTemporaryDirectory { directory throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("plan.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            let sql = SQLOrderRepository<SQLiteDatabase>.heldSQL
            let plan = try database.blockingRead { connection in
                try connection.query("EXPLAIN QUERY PLAN " + sql, [.integer(1)]) { $0.string(3) }
            }
            let text = plan.joined(separator: " | ")
            #expect(plan.count == 2 && plan[0].contains("orders_by_status") && plan[1].contains("(order_id=?)"), "\(text)")
            #expect(!text.contains("order_lines_by_product"), "\(text)")
        }
    }
}
