import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Holding stock for unpaid orders within ``StockHoldPolicy``'s caps, and taking the units of
/// lines sold on payment when their order is paid.
extension SQLOrderRepository {
    /// What a buyer holds: orders awaiting payment.
    final class Holdings {
        var openOrders = 0
    }

    /// The statements that lock the buyer's row and then the `products` (in id order, as the
    /// takes go), and count the buyer's open orders into `holdings` (`FOR UPDATE` on Postgres;
    /// SQLite's one writer needs no lock). Under `READ COMMITTED` every later statement of the
    /// checkout then sees each racing checkout's order whole: one that held a product's lock
    /// committed before letting go of it, so the caps each take checks count it.
    static func holdStatements<Connection: SQLConnection>(
        of buyer: UserID, locking products: [ProductID], at now: Date, into holdings: Holdings, on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        let buyerValue = SQLValue.integer(buyer.rawValue)
        let ids = products.sorted()
        return [
            .run("SELECT id FROM users WHERE id = ?\(connection.dialect.locking(.update))", [buyerValue]),
            .run("""
                SELECT id FROM products WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ", "))) ORDER BY id\
                \(connection.dialect.locking(.update))
                """, ids.map { .integer($0.rawValue) }),
            .query("SELECT count(*) FROM orders WHERE buyer_id = ? AND status = 'awaiting_payment' AND expires_at > ?",
                   [buyerValue, StoredTime.value(now)]) { holdings.openOrders = $0.int(0) },
        ]
    }

    /// Units of a product (`?`) held by orders awaiting payment, of every buyer: an order past
    /// its reservation but not yet expired still keeps its units off the shelf, so it counts.
    ///
    /// Read from the open orders to their lines (`CROSS JOIN` fixes that order on SQLite, and the
    /// unary `+` keeps the product's index out of it), so a checkout reads the shop's orders
    /// awaiting payment — few, each gone within its reservation — and never every line a
    /// best-selling product ever sold.
    static var heldSQL: String {
        """
        SELECT coalesce(sum(l.quantity), 0) FROM orders o CROSS JOIN order_lines l
        WHERE l.order_id = o.id AND o.status = 'awaiting_payment' AND +l.product_id = ? AND l.stock_taken = 1
        """
    }

    /// The statement that takes a line's units: `stock >= ?` of a listed product; with
    /// `limits`, also within the holding caps (``StockHoldLimits/mayHold(_:onShelf:held:heldByBuyer:)``
    /// in SQL). Its arguments: ``takeArguments(_:of:at:)``.
    static func takeStatement(_ limits: StockHoldLimits?) -> String {
        let take = "UPDATE products SET stock = stock - ?, version = version + 1, updated_at = ? WHERE id = ? AND stock >= ? AND listed = 1"
        guard limits != nil else { return take }
        return take + """
             AND stock - ? >= ? AND ? * (\(heldSQL)) + 100 * ? <= ? * stock \
            AND (\(heldSQL) AND o.buyer_id = ? AND o.expires_at > ?) + ? <= ?
            """
    }

    static func takeArguments(_ line: OrderLine, of order: NewOrder, at now: Date) -> [SQLValue] {
        let product = SQLValue.integer(line.productID.rawValue)
        let arguments: [SQLValue] = [.int(line.quantity), StoredTime.value(now), product, .int(line.quantity)]
        guard let limits = order.holdLimits else { return arguments }
        return arguments + [
            .int(line.quantity), .int(limits.minimumOnShelf),
            .int(100 - limits.maximumHeldPercent), product, .int(line.quantity), .int(limits.maximumHeldPercent),
            product, .integer(order.buyerID.rawValue), StoredTime.value(now), .int(line.quantity), .int(limits.maximumUnitsPerProduct),
        ]
    }

    /// Takes the units of the order's lines sold on payment, as its payment moves it to paid:
    /// each product's lapsed reservations are expired first when it is short, as at checkout.
    ///
    /// - Throws: `outOfStock` naming the first product that sold out meanwhile (the caller's
    ///   transaction then takes the move back).
    static func takeLinesSoldOnPayment(of id: OrderID, at now: Date, on connection: some SQLConnection) throws {
        let lines = try connection.query("""
            SELECT line, product_id, quantity, title FROM order_lines WHERE order_id = ? AND stock_taken = 0 ORDER BY product_id
            """, [.integer(id.rawValue)]) { (line: $0.int(0), product: ProductID($0.int64(1)), quantity: $0.int(2), title: $0.string(3)) }
        let take = takeStatement(nil)
        for line in lines {
            let arguments: [SQLValue] = [.int(line.quantity), StoredTime.value(now), .integer(line.product.rawValue), .int(line.quantity)]
            if try connection.run(take, arguments) != 1 {
                guard try releaseExpiredReservations(of: line.product, at: now, on: connection) > 0,
                      try connection.run(take, arguments) == 1 else {
                    throw KeyCatError(
                        .outOfStock, "\(line.title) sold out before the payment arrived",
                        context: ["product_id": "\(line.product)", "title": line.title, "requested": "\(line.quantity)"])
                }
            }
            try connection.run("UPDATE order_lines SET stock_taken = 1 WHERE order_id = ? AND line = ?",
                               [.integer(id.rawValue), .int(line.line)])
            try StockLedger.record(.orderTaken, change: -line.quantity, product: line.product, order: id, at: now, on: connection)
        }
    }
}
