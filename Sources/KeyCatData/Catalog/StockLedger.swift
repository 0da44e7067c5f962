import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Writes and reads the inventory ledger (``InventoryLedgerSchema``). Every statement that
/// changes `products.stock` is followed, on the same connection and in the same transaction, by
/// ``record(_:change:product:order:actor:reason:at:on:)``: nothing else may touch stock.
enum StockLedger {
    static let insertSQL = """
        INSERT INTO stock_movements (product_id, kind, change, order_id, actor, reason, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// Records one movement; a zero change writes nothing.
    static func record(
        _ kind: StockMovement.Kind, change: Int, product: ProductID, order: OrderID? = nil,
        actor: String = "system", reason: String = "", at now: Date, on connection: some SQLConnection
    ) throws {
        guard change != 0 else { return }
        try connection.batch([statement(kind, change: change, product: product, order: order, actor: actor, reason: reason, at: now)])
    }

    /// The statement ``record(_:change:product:order:actor:reason:at:on:)`` runs, for a batch
    /// (the caller leaves out a zero change).
    static func statement<Row>(
        _ kind: StockMovement.Kind, change: Int, product: ProductID, order: OrderID? = nil,
        actor: String = "system", reason: String = "", at now: Date
    ) -> SQLStatement<Row> {
        .run(insertSQL, [.integer(product.rawValue), .text(kind.rawValue), .int(change),
                         order.map { .integer($0.rawValue) } ?? .null, .text(actor), .text(reason), StoredTime.value(now)])
    }

    /// A product's movements, oldest first, strictly after the movement `after`.
    static func movements(of product: ProductID, after: Int64?, limit: Int, on connection: some SQLConnection) throws -> [StockMovement] {
        try connection.query("""
            SELECT id, product_id, kind, change, order_id, actor, reason, created_at FROM stock_movements
            WHERE product_id = ? AND id > ? ORDER BY id LIMIT ?
            """, [.integer(product.rawValue), .integer(after ?? 0), .int(limit)]
        ) { row in
            guard let kind = StockMovement.Kind(rawValue: row.string(2)) else {
                throw KeyCatError(.internalError, "stock movement \(row.int64(0)) has an unknown kind \(row.string(2))")
            }
            return StockMovement(
                id: row.int64(0), productID: ProductID(row.int64(1)), kind: kind, change: row.int(3),
                orderID: row.optionalInt64(4).map { OrderID($0) }, actor: row.string(5), reason: row.string(6),
                createdAt: StoredTime.date(row.int64(7)))
        }
    }
}
