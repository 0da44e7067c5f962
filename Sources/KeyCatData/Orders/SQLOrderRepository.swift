import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Orders, their lines and payments in SQLite (see ``OrdersSchema``). Every status change is a
/// conditional `UPDATE … WHERE status = ?` in a short `BEGIN IMMEDIATE` transaction, so racing
/// confirms, webhooks and reconcilers in any number of processes agree on one winner.
package struct SQLOrderRepository<Database: SQLDatabase>: OrderRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    /// Takes the stock and writes the order, its parcels, lines, stock movements and address in
    /// one transaction, in two batches (on Postgres: two round trips and the `COMMIT`): the stock
    /// takes with the order's own row, then every other insert and the order read back. Nothing
    /// looks the new order up by its merchant UID: under `SERIALIZABLE` each such read is one
    /// more predicate lock for concurrent checkouts to conflict with.
    package func create(_ order: NewOrder, at now: Date) throws(KeyCatError) -> Order {
        try storage {
            try database.write { connection in
                if let limits = order.holdLimits { try Self.checkHolds(order, limits, at: now, on: connection) }
                let id = try Self.takeStockAndInsert(order, at: now, on: connection)
                var created: Order?
                let details = OrderRow.Details()
                try connection.batch(Self.detailStatements(order, id: id, at: now)
                    + OrderRow.findStatements(id, into: details, on: connection) { created = $0 })
                guard let created else { throw KeyCatError.notFound("order", id) }
                return details.complete(created)
            }
        }
    }

    /// Takes each line's units with the one statement that takes stock, which must hit or the
    /// order is not made, and inserts the order's row in the same batch (the request key, when
    /// the order has one, let go first by an order past its retention). A line that missed tries
    /// again once after expiring the reservations that lapsed on its product; one that misses
    /// again throws `outOfStock`, and the transaction takes the row back with the stock.
    private static func takeStockAndInsert(_ order: NewOrder, at now: Date, on connection: Database.Connection) throws -> OrderID {
        let take = "UPDATE products SET stock = stock - ?, version = version + 1, updated_at = ? WHERE id = ? AND stock >= ? AND listed = 1"
        func arguments(_ line: OrderLine) -> [SQLValue] {
            [.int(line.quantity), StoredTime.value(now), .integer(line.productID.rawValue), .int(line.quantity)]
        }
        var statements: [SQLStatement<Database.Connection.Row>] = order.lines.map { .run(take, arguments($0)) }
        if let key = order.requestKey {
            // A key past its retention is new again: the old order lets go of it.
            statements.append(.run("UPDATE orders SET request_key = NULL WHERE buyer_id = ? AND request_key = ?",
                                   [.integer(order.buyerID.rawValue), .text(key)]))
        }
        var id: Int64?
        statements.append(.query("""
            INSERT INTO orders (merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at,
                                created_at, updated_at, request_key)
            VALUES (?, ?, ?, ?, ?, 'awaiting_payment', ?, ?, ?, ?) RETURNING id
            """, [.text(order.merchantUID), .integer(order.buyerID.rawValue), .integer(order.itemsTotal.won),
                  .integer(order.deliveryTotal.won), .integer(order.amount.won), StoredTime.value(order.expiresAt),
                  StoredTime.value(now), StoredTime.value(now), .optional(order.requestKey.map(SQLValue.text))]) { id = $0.int64(0) })
        let taken = try connection.batch(statements)
        for (line, count) in zip(order.lines, taken) where count != 1 {
            if try releaseExpiredReservations(of: line.productID, at: now, on: connection) > 0,
               try connection.run(take, arguments(line)) == 1 {
                continue
            }
            let left = try connection.queryOne(
                "SELECT CASE WHEN listed = 1 THEN stock ELSE 0 END FROM products WHERE id = ?",
                [.integer(line.productID.rawValue)]) { $0.int(0) } ?? 0
            throw KeyCatError(
                .outOfStock, "only \(left) of \(line.title) left, \(line.quantity) wanted",
                context: ["product_id": "\(line.productID)", "title": line.title, "available": "\(left)",
                          "requested": "\(line.quantity)"])
        }
        guard let id else { throw KeyCatError(.internalError, "order \(order.merchantUID) was not written") }
        return OrderID(id)
    }

    /// One parcel per seller, the lines in their parcels, a stock movement per line and the
    /// address of the order `id`, in one batch: a line names its parcel by (order, seller), as an
    /// order has one parcel per seller, so nothing waits for the parcels' ids.
    private static func detailStatements(_ order: NewOrder, id: OrderID, at now: Date) throws -> [SQLStatement<Database.Connection.Row>] {
        let orderID = SQLValue.integer(id.rawValue)
        var statements: [SQLStatement<Database.Connection.Row>] = []
        var sellerOfLine: [Int: UserID] = [:]
        for parcel in Shipment.parcels(of: order.lines) {
            guard let seller = parcel.sellerID else {
                throw KeyCatError(.internalError, "an order line reached the store without its seller")
            }
            statements.append(.run("""
                INSERT INTO shipments (order_id, seller_id, status, delivery_fee, created_at, updated_at)
                VALUES (?, ?, 'pending', ?, ?, ?)
                """, [orderID, .integer(seller.rawValue), .integer(parcel.deliveryFee.won), StoredTime.value(now),
                      StoredTime.value(now)]))
            for position in parcel.lines { sellerOfLine[position] = seller }
        }
        for (index, line) in order.lines.enumerated() {
            statements.append(.run("""
                INSERT INTO order_lines (order_id, line, product_id, title, unit_price, quantity, delivery_fee, shipment_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT id FROM shipments WHERE order_id = ? AND seller_id = ?))
                """, [orderID, .int(index), .integer(line.productID.rawValue), .text(line.title),
                      .integer(line.unitPrice.won), .int(line.quantity), .integer(line.deliveryFee.won),
                      orderID, .optional(sellerOfLine[index].map { SQLValue.integer($0.rawValue) })]))
            statements.append(StockLedger.statement(.orderTaken, change: -line.quantity, product: line.productID,
                                                    order: id, at: now))
        }
        if let address = order.shippingAddress {
            statements.append(.run("""
                INSERT INTO order_addresses (order_id, recipient, phone, postcode, road_address, detail, request)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [orderID] + SQLAddressRepository<Database>.values(address)))
        }
        return statements
    }

    package func find(_ id: OrderID) throws(KeyCatError) -> Order? {
        try storage { try database.read { try OrderRow.find(id, on: $0) } }
    }

    /// Refuses `order` when its buyer already holds as many open orders, or units of one of its
    /// products, as `limits` allow. Runs in the creating transaction, so racing checkouts of one
    /// buyer are counted one after the other.
    static func checkHolds(_ order: NewOrder, _ limits: StockHoldLimits, at now: Date, on connection: some SQLConnection) throws {
        let buyer = SQLValue.integer(order.buyerID.rawValue)
        let open = try connection.queryOne(
            "SELECT count(*) FROM orders WHERE buyer_id = ? AND status = 'awaiting_payment' AND expires_at > ?",
            [buyer, StoredTime.value(now)]) { $0.int(0) } ?? 0
        var held: [ProductID: Int] = [:]
        try connection.forEach("""
            SELECT l.product_id, sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE o.buyer_id = ? AND o.status = 'awaiting_payment' AND o.expires_at > ?
            GROUP BY l.product_id
            """, [buyer, StoredTime.value(now)]) { row in held[ProductID(row.int64(0))] = row.int(1) }
        try limits.check(order, openOrders: open, heldUnits: held)
    }

    /// Expires the orders holding `product` whose reservation ended by `now` and whose PG outcome
    /// is not in doubt, giving back every unit they took (the ledger's `order_returned`).
    ///
    /// - Returns: how many orders it expired.
    static func releaseExpiredReservations(of product: ProductID, at now: Date, on connection: some SQLConnection) throws -> Int {
        let expired = try connection.query("""
            UPDATE orders SET status = 'expired', updated_at = ?
            WHERE status = 'awaiting_payment' AND outcome_unknown = 0 AND expires_at <= ?
              AND id IN (SELECT order_id FROM order_lines WHERE product_id = ?)
            RETURNING id
            """, [StoredTime.value(now), StoredTime.value(now), .integer(product.rawValue)]) { OrderID($0.int64(0)) }
        for id in expired { try OrderRow.returnStock(of: id, as: .orderReturned, at: now, on: connection) }
        return expired.count
    }

    package func find(merchantUID: String) throws(KeyCatError) -> Order? {
        try storage {
            try database.read { try OrderRow.find(where: "merchant_uid = ?", [.text(merchantUID)], on: $0) }
        }
    }

    package func find(buyer: UserID, requestKey: String) throws(KeyCatError) -> Order? {
        try storage {
            try database.read {
                try OrderRow.find(where: "buyer_id = ? AND request_key = ?", [.integer(buyer.rawValue), .text(requestKey)], on: $0)
            }
        }
    }

    package func list(_ filter: OrderFilter, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [Order] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let status = filter.status { conditions.append("status = ?"); arguments.append(.text(status.rawValue)) }
        if let buyer = filter.buyerID { conditions.append("buyer_id = ?"); arguments.append(.integer(buyer.rawValue)) }
        if let position {
            conditions.append("(created_at < ? OR (created_at = ? AND id < ?))")
            arguments += [.integer(position.sortKey), .integer(position.sortKey), .integer(position.id)]
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(OrderRow.columns) FROM orders \(whereClause) ORDER BY created_at DESC, id DESC LIMIT ?"
        return try storage {
            try database.read { connection in
                try OrderRow.withLines(try connection.query(sql, arguments + [.int(limit)], OrderRow.decode), on: connection)
            }
        }
    }

    package func apply(_ transition: OrderTransition, at now: Date) throws(KeyCatError) -> Bool {
        try storage {
            try database.write { connection in
                var sql = "UPDATE orders SET status = ?, updated_at = ?, outcome_unknown = 0"
                var arguments: [SQLValue] = [.text(transition.to.rawValue), StoredTime.value(now)]
                if let payment = transition.payment, payment.status == .paid {
                    sql += ", imp_uid = ?, paid_at = ?"
                    arguments += [.text(payment.impUID), StoredTime.value(now)]
                }
                if transition.releasesRequestKey { sql += ", request_key = NULL" }
                if transition.to == .delivered {
                    // What makes the buyer's review possible, kept through later refunds.
                    sql += ", delivered_at = ?"
                    arguments.append(StoredTime.value(now))
                }
                if let carrier = transition.carrier {
                    sql += ", carrier = ?, tracking_number = ?"
                    arguments += [.text(carrier), .optional(transition.trackingNumber.map(SQLValue.text))]
                }
                sql += " WHERE id = ? AND status = ?"
                arguments += [.integer(transition.orderID.rawValue), .text(transition.from.rawValue)]
                if transition.requiresNoPendingRefund {
                    sql += " AND NOT EXISTS (SELECT 1 FROM refunds WHERE refunds.order_id = orders.id AND refunds.status = 'pending')"
                }
                if let deadline = transition.onlyIfExpiredBy {
                    sql += " AND expires_at <= ?"
                    arguments.append(StoredTime.value(deadline))
                }
                guard try connection.run(sql, arguments) == 1 else { return false }
                if let payment = transition.payment {
                    let paymentID = try Self.insert(payment, at: now, on: connection)
                    if payment.status == .paid, transition.to == .paid {
                        try SettlementLedger.recordSale(of: transition.orderID, payment: paymentID, at: now, on: connection)
                    }
                }
                if transition.to == .shipped || transition.to == .delivered {
                    // An order moved as a whole moves its parcels with it.
                    try connection.run("""
                        UPDATE shipments SET status = ?, updated_at = ?,
                            carrier = coalesce(?, carrier), tracking_number = coalesce(?, tracking_number),
                            shipped_at = coalesce(shipped_at, ?),
                            delivered_at = CASE WHEN CAST(? AS TEXT) = 'delivered' THEN ? ELSE delivered_at END
                        WHERE order_id = ? AND status IN ('pending', 'shipped') AND status <> ?
                        """, [.text(transition.to.rawValue), StoredTime.value(now), .optional(transition.carrier.map(SQLValue.text)),
                              .optional(transition.trackingNumber.map(SQLValue.text)), StoredTime.value(now),
                              .text(transition.to.rawValue), StoredTime.value(now), .integer(transition.orderID.rawValue),
                              .text(transition.to.rawValue)])
                }
                if [.expired, .cancelled, .failed].contains(transition.to) {
                    try Self.cancelPendingShipments(of: transition.orderID, at: now, on: connection)
                }
                if transition.returnsStock { try OrderRow.returnStock(of: transition.orderID, as: .orderReturned, at: now, on: connection) }
                if transition.clearsCart {
                    try connection.run("""
                        DELETE FROM cart_lines WHERE user_id = (SELECT buyer_id FROM orders WHERE id = ?)
                          AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)
                        """, [.integer(transition.orderID.rawValue), .integer(transition.orderID.rawValue)])
                }
                if let audit = transition.audit { try AuditLogTable.insert(audit, on: connection) }
                return true
            }
        }
    }

    /// Cancels the order's shipments that never left: it closed, or was refunded in full.
    static func cancelPendingShipments(of id: OrderID, at now: Date, on connection: some SQLConnection) throws {
        try connection.run("UPDATE shipments SET status = 'cancelled', updated_at = ? WHERE order_id = ? AND status = 'pending'",
                           [StoredTime.value(now), .integer(id.rawValue)])
    }

    @discardableResult
    static func insert(_ payment: OrderPayment, at now: Date, on connection: some SQLConnection) throws -> Int64 {
        try connection.insertReturningID("""
            INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(payment.impUID), .integer(payment.orderID.rawValue), .text(payment.merchantUID),
                  .integer(payment.amount.won), .text(payment.status.rawValue), StoredTime.value(now), StoredTime.value(now)])
    }

    package func setOutcomeUnknown(_ id: OrderID, _ unknown: Bool) throws(KeyCatError) {
        try storage {
            try database.write { connection in
                try connection.run("UPDATE orders SET outcome_unknown = ? WHERE id = ? AND status = 'awaiting_payment'",
                                   [.bool(unknown), .integer(id.rawValue)])
            }
        }
    }

    package func ordersToReconcile(at now: Date, limit: Int) throws(KeyCatError) -> [Order] {
        try storage {
            try database.read { connection in
                let orders = try connection.query("""
                    SELECT \(OrderRow.columns) FROM orders
                    WHERE status = 'awaiting_payment' AND (expires_at <= ? OR outcome_unknown = 1)
                    ORDER BY expires_at, id LIMIT ?
                    """, [StoredTime.value(now), .int(limit)], OrderRow.decode)
                return try OrderRow.withLines(orders, on: connection)
            }
        }
    }
}

/// ``SQLOrderRepository`` over a SQLite file.
package typealias SQLiteOrderRepository = SQLOrderRepository<SQLiteDatabase>
/// ``SQLOrderRepository`` over a Postgres database.
package typealias PostgresOrderRepository = SQLOrderRepository<PostgresDatabase>
