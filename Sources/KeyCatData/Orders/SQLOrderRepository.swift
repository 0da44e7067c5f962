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
    /// one transaction, in two batches (on Postgres: two round trips, the second carrying the
    /// `COMMIT`): the stock takes with the order's own row, then every other insert and the order
    /// read back.
    ///
    /// `READ COMMITTED` on Postgres, so concurrent checkouts never run again for a conflict:
    /// every statement is conditional on the rows it changes (the stock take re-checks
    /// `stock >= ?` after waiting for the product's lock; the request key is a unique index), and
    /// the hold limits, the one read that decides a write, are counted after locking the buyer's
    /// row, so one buyer's checkouts are counted one after another.
    package func create(_ order: NewOrder, at now: Date) throws(KeyCatError) -> Order {
        try storage {
            try database.write(isolation: .readCommitted) { connection in
                let id = try Self.takeStockAndInsert(order, at: now, on: connection)
                let created = try OrderRow.run(Self.detailStatements(order, id: id, at: now), thenFind: id,
                                               endingTransaction: true, on: connection).order
                guard let created else { throw KeyCatError.notFound("order", id) }
                return created
            }
        }
    }

    /// Takes each line's units with the one statement that takes stock, which must hit or the
    /// order is not made, and inserts the order's row in the same batch (the request key, when
    /// the order has one, let go first by an order past its retention; the buyer's held orders
    /// and units counted first, when the order has hold limits). The takes go in product order,
    /// so two checkouts of the same products lock them in the same order and never deadlock.
    /// A line that missed tries again once after expiring the reservations that lapsed on its
    /// product; one that misses again throws `outOfStock`, and the transaction takes the row
    /// back with the stock.
    private static func takeStockAndInsert(_ order: NewOrder, at now: Date, on connection: Database.Connection) throws -> OrderID {
        let take = "UPDATE products SET stock = stock - ?, version = version + 1, updated_at = ? WHERE id = ? AND stock >= ? AND listed = 1"
        func arguments(_ line: OrderLine) -> [SQLValue] {
            [.int(line.quantity), StoredTime.value(now), .integer(line.productID.rawValue), .int(line.quantity)]
        }
        var statements: [SQLStatement<Database.Connection.Row>] = []
        let holdings = Holdings()
        if order.holdLimits != nil { statements += holdStatements(of: order.buyerID, at: now, into: holdings, on: connection) }
        let takes = order.lines.sorted { $0.productID < $1.productID }
        let firstTake = statements.count
        statements += takes.map { .run(take, arguments($0)) }
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
        let changes = try connection.batch(statements)
        if let limits = order.holdLimits { try limits.check(order, openOrders: holdings.openOrders, heldUnits: holdings.units) }
        for (line, count) in zip(takes, changes[firstTake...]) where count != 1 {
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

    /// What a buyer holds: orders awaiting payment, and units of each product in them.
    final class Holdings {
        var openOrders = 0
        var units: [ProductID: Int] = [:]
    }

    /// The statements that count what `buyer` holds now into `holdings`, the buyer's row locked
    /// first (`FOR UPDATE` on Postgres; SQLite's one writer needs no lock), so racing checkouts
    /// of one buyer count each other's orders even under `READ COMMITTED`.
    static func holdStatements<Connection: SQLConnection>(
        of buyer: UserID, at now: Date, into holdings: Holdings, on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        let buyerValue = SQLValue.integer(buyer.rawValue)
        return [
            .query("SELECT id FROM users WHERE id = ?\(connection.dialect.lockingSelectedRows)", [buyerValue]) { _ in },
            .query("SELECT count(*) FROM orders WHERE buyer_id = ? AND status = 'awaiting_payment' AND expires_at > ?",
                   [buyerValue, StoredTime.value(now)]) { holdings.openOrders = $0.int(0) },
            .query("""
                SELECT l.product_id, sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
                WHERE o.buyer_id = ? AND o.status = 'awaiting_payment' AND o.expires_at > ?
                GROUP BY l.product_id
                """, [buyerValue, StoredTime.value(now)]) { holdings.units[ProductID($0.int64(0))] = $0.int(1) },
        ]
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

    /// Moves the order with one conditional `UPDATE … WHERE status = ?`, then writes what the
    /// move brings in one batch that also reads the order back and carries the `COMMIT` (on
    /// Postgres: two round trips in all; returning stock, which depends on what each line still
    /// holds, runs between them).
    ///
    /// The payment's move (awaiting payment to paid) is `READ COMMITTED` on Postgres: its
    /// `UPDATE` re-checks the status after waiting for a racing move's lock, the payment's
    /// `imp_uid` is unique, and what it reads besides (the order's lines and parcels) no longer
    /// changes once the order exists, so confirms, webhooks and reconcilers racing to pay orders
    /// never run again for a conflict. Every other move stays `SERIALIZABLE`: shipping checks that
    /// no refund is pending, which a refund starting beside it could make untrue.
    package func apply(_ transition: OrderTransition, at now: Date) throws(KeyCatError) -> Order? {
        let isolation: SQLIsolation = transition.from == .awaitingPayment && transition.to == .paid ? .readCommitted : .serializable
        return try storage {
            try database.write(isolation: isolation) { connection in
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
                guard try connection.run(sql, arguments) == 1 else { return nil }
                if transition.returnsStock { try OrderRow.returnStock(of: transition.orderID, as: .orderReturned, at: now, on: connection) }
                return try OrderRow.run(Self.moveStatements(transition, at: now), thenFind: transition.orderID,
                                        endingTransaction: true, on: connection).order
            }
        }
    }

    /// What a move that happened writes besides the order's row, none depending on another's
    /// result: the payment and its sale entries, the parcels moved or cancelled with the order,
    /// the cart emptied of what was bought, the audit entry.
    private static func moveStatements(_ transition: OrderTransition, at now: Date) -> [SQLStatement<Database.Connection.Row>] {
        let orderID = SQLValue.integer(transition.orderID.rawValue)
        var statements: [SQLStatement<Database.Connection.Row>] = []
        if let payment = transition.payment {
            statements.append(.run(insertPaymentSQL, paymentValues(payment, at: now)))
            if payment.status == .paid, transition.to == .paid {
                statements.append(SettlementLedger.saleStatement(of: transition.orderID, paymentImpUID: payment.impUID, at: now))
            }
        }
        if transition.to == .shipped || transition.to == .delivered {
            // An order moved as a whole moves its parcels with it.
            statements.append(.run("""
                UPDATE shipments SET status = ?, updated_at = ?,
                    carrier = coalesce(?, carrier), tracking_number = coalesce(?, tracking_number),
                    shipped_at = coalesce(shipped_at, ?),
                    delivered_at = CASE WHEN CAST(? AS TEXT) = 'delivered' THEN ? ELSE delivered_at END
                WHERE order_id = ? AND status IN ('pending', 'shipped') AND status <> ?
                """, [.text(transition.to.rawValue), StoredTime.value(now), .optional(transition.carrier.map(SQLValue.text)),
                      .optional(transition.trackingNumber.map(SQLValue.text)), StoredTime.value(now),
                      .text(transition.to.rawValue), StoredTime.value(now), orderID, .text(transition.to.rawValue)]))
        }
        if [.expired, .cancelled, .failed].contains(transition.to) {
            statements.append(.run(cancelPendingShipmentsSQL, [StoredTime.value(now), orderID]))
        }
        if transition.clearsCart {
            statements.append(.run("""
                DELETE FROM cart_lines WHERE user_id = (SELECT buyer_id FROM orders WHERE id = ?)
                  AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)
                """, [orderID, orderID]))
        }
        if let audit = transition.audit { statements.append(AuditLogTable.statement(audit)) }
        return statements
    }

    /// Cancels the order's shipments that never left: it closed, or was refunded in full.
    static func cancelPendingShipments(of id: OrderID, at now: Date, on connection: some SQLConnection) throws {
        try connection.run(cancelPendingShipmentsSQL, [StoredTime.value(now), .integer(id.rawValue)])
    }

    private static var cancelPendingShipmentsSQL: String {
        "UPDATE shipments SET status = 'cancelled', updated_at = ? WHERE order_id = ? AND status = 'pending'"
    }

    static func insert(_ payment: OrderPayment, at now: Date, on connection: some SQLConnection) throws {
        try connection.run(insertPaymentSQL, paymentValues(payment, at: now))
    }

    private static var insertPaymentSQL: String {
        """
        INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    }

    private static func paymentValues(_ payment: OrderPayment, at now: Date) -> [SQLValue] {
        [.text(payment.impUID), .integer(payment.orderID.rawValue), .text(payment.merchantUID), .integer(payment.amount.won),
         .text(payment.status.rawValue), StoredTime.value(now), StoredTime.value(now)]
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
