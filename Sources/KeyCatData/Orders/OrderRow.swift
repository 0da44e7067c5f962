import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How orders, payments and refunds map to their rows.
enum OrderRow {
    static let columns = """
        id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, refunded_amount, \
        stock_returned, imp_uid, carrier, tracking_number, created_at, updated_at, paid_at
        """

    /// Decodes an order row; its lines are read separately.
    static func decode(_ row: some SQLRow) throws -> Order {
        guard let status = OrderStatus(rawValue: row.string(6)) else {
            throw KeyCatError(.internalError, "order \(row.int64(0)) has an unknown status \(row.string(6))")
        }
        return Order(
            id: OrderID(row.int64(0)), merchantUID: row.string(1), buyerID: UserID(row.int64(2)), lines: [],
            itemsTotal: Money(won: row.int64(3)), deliveryTotal: Money(won: row.int64(4)), amount: Money(won: row.int64(5)),
            status: status, expiresAt: StoredTime.date(row.int64(7)), refundedAmount: Money(won: row.int64(8)),
            stockReturned: row.bool(9), impUID: row.optionalString(10), carrier: row.optionalString(11),
            trackingNumber: row.optionalString(12), createdAt: StoredTime.date(row.int64(13)),
            updatedAt: StoredTime.date(row.int64(14)), paidAt: StoredTime.date(row.optionalInt64(15)))
    }

    /// Fills in the lines of `orders` with one query for all of them (the ids travel as a JSON
    /// array, each a seek on the `(order_id, line)` primary key).
    static func withLines(_ orders: [Order], on connection: some SQLConnection) throws -> [Order] {
        guard orders.count > 1 else {
            return try orders.map { order in
                var order = order
                order.lines = try lines(of: order.id, on: connection)
                return order
            }
        }
        let ids = "[" + orders.map { String($0.id.rawValue) }.joined(separator: ",") + "]"
        var linesByOrder: [OrderID: [OrderLine]] = [:]
        try connection.forEach("""
            SELECT order_id, product_id, title, unit_price, quantity, delivery_fee FROM order_lines
            WHERE order_id IN (\(connection.dialect.integersFromJSON)) ORDER BY order_id, line
            """, [.text(ids)]) { row in
            linesByOrder[OrderID(row.int64(0)), default: []].append(OrderLine(
                productID: ProductID(row.int64(1)), title: row.string(2), unitPrice: Money(won: row.int64(3)),
                quantity: row.int(4), deliveryFee: Money(won: row.int64(5))))
        }
        return orders.map { order in
            var order = order
            order.lines = linesByOrder[order.id] ?? []
            return order
        }
    }

    static func lines(of id: OrderID, on connection: some SQLConnection) throws -> [OrderLine] {
        try connection.query(
            "SELECT product_id, title, unit_price, quantity, delivery_fee FROM order_lines WHERE order_id = ? ORDER BY line",
            [.integer(id.rawValue)]
        ) { row in
            OrderLine(productID: ProductID(row.int64(0)), title: row.string(1), unitPrice: Money(won: row.int64(2)),
                      quantity: row.int(3), deliveryFee: Money(won: row.int64(4)))
        }
    }

    static func find(_ id: OrderID, on connection: some SQLConnection) throws -> Order? {
        guard let order = try connection.queryOne("SELECT \(columns) FROM orders WHERE id = ?", [.integer(id.rawValue)], decode)
        else { return nil }
        return try withLines([order], on: connection).first
    }

    static let paymentColumns = "id, imp_uid, order_id, merchant_uid, amount, status, created_at"

    /// The payment columns qualified with `p.`, for joins with `orders`; built once.
    static let prefixedPaymentColumns = paymentColumns.split(separator: ",")
        .map { "p." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    static func decodePayment(_ row: some SQLRow) throws -> OrderPayment {
        OrderPayment(
            id: row.int64(0), impUID: row.string(1), orderID: OrderID(row.int64(2)), merchantUID: row.string(3),
            amount: Money(won: row.int64(4)), status: OrderPayment.Status(rawValue: row.string(5)) ?? .paid,
            createdAt: StoredTime.date(row.int64(6)))
    }

    static let refundColumns =
        "id, order_id, amount, checksum, reason, restock, target, status, created_at, request_key, request_fingerprint"

    static func decodeRefund(_ row: some SQLRow) throws -> Refund {
        Refund(
            id: row.int64(0), orderID: OrderID(row.int64(1)), amount: Money(won: row.int64(2)),
            checksum: Money(won: row.int64(3)), reason: row.string(4), restock: row.bool(5),
            target: OrderStatus(rawValue: row.string(6)) ?? .refunded,
            status: Refund.Status(rawValue: row.string(7)) ?? .pending, createdAt: StoredTime.date(row.int64(8)),
            requestKey: row.optionalString(9), requestFingerprint: row.optionalString(10))
    }

    /// Gives an order's units back to stock and marks it returned, once, each line's units a
    /// `kind` movement in the ledger.
    static func returnStock(of id: OrderID, as kind: StockMovement.Kind, at now: Date, on connection: some SQLConnection) throws {
        let marked = try connection.run(
            "UPDATE orders SET stock_returned = 1 WHERE id = ? AND stock_returned = 0", [.integer(id.rawValue)])
        guard marked == 1 else { return }
        for line in try lines(of: id, on: connection) {
            try connection.run(
                "UPDATE products SET stock = stock + ?, version = version + 1, updated_at = ? WHERE id = ?",
                [.int(line.quantity), StoredTime.value(now), .integer(line.productID.rawValue)])
            try StockLedger.record(kind, change: line.quantity, product: line.productID, order: id, at: now, on: connection)
        }
    }
}
