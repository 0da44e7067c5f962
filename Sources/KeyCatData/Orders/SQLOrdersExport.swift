import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Reads an ``OrdersExport`` in one read transaction, so the three lists are one consistent
/// snapshot even while the shop keeps selling. Each list walks an index on its table's time.
package struct SQLOrdersExport<Database: SQLDatabase>: Sendable {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func export(since: Date, until: Date) async throws(KeyCatError) -> OrdersExport {
        let period: [SQLValue] = [StoredTime.value(since), StoredTime.value(until)]
        return try await storage {
            try await database.read { connection in
                let orders = try connection.query(
                    "SELECT \(OrderRow.columns) FROM orders WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id",
                    period, OrderRow.decode)
                return OrdersExport(
                    since: since, until: until, orders: try OrderRow.withLines(orders, on: connection),
                    payments: try connection.query(
                        "SELECT \(OrderRow.paymentColumns) FROM payments WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id",
                        period, OrderRow.decodePayment),
                    refunds: try connection.query(
                        "SELECT \(OrderRow.refundColumns) FROM refunds WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id",
                        period, OrderRow.decodeRefund))
            }
        }
    }
}
