import KeyCatDomain
import KeyCatInfrastructure

/// Who may review what, answered from the orders tables: a buyer may review a product once an
/// order of it was delivered to them (`delivered_at` set) and is still delivered or only partly
/// refunded. Paid or shipped is not enough (a review of what one has not held says nothing), and
/// a fully refunded, cancelled, failed or expired order does not count.
package struct SQLPurchaseHistory<Database: SQLDatabase>: PurchaseHistory {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func hasEligiblePurchase(buyer: UserID, product: ProductID) throws(KeyCatError) -> Bool {
        try storage {
            try database.readStatement { connection in
                try connection.queryOne("""
                    SELECT EXISTS (
                        SELECT 1 FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.buyer_id = ? AND l.product_id = ?
                          AND o.delivered_at IS NOT NULL AND o.status IN ('delivered', 'partially_refunded'))
                    """, [.integer(buyer.rawValue), .integer(product.rawValue)]) { $0.bool(0) } ?? false
            }
        }
    }
}

/// ``SQLPurchaseHistory`` over a SQLite file.
package typealias SQLitePurchaseHistory = SQLPurchaseHistory<SQLiteDatabase>
/// ``SQLPurchaseHistory`` over a Postgres database.
package typealias PostgresPurchaseHistory = SQLPurchaseHistory<PostgresDatabase>
