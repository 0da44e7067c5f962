import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Orders, their lines and payments on either store (see ``OrdersSchema``). Every status change
/// is a conditional `UPDATE … WHERE status = ?` in one short write transaction (SQLite's one
/// writer; on Postgres the row's lock, the status re-checked after waiting for it), so racing
/// confirms, webhooks and reconcilers in any number of processes or servers agree on one winner,
/// and the change's event is written by the winner alone.
package struct SQLOrderRepository<Database: SQLDatabase>: OrderRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    package func find(_ id: OrderID) async throws(KeyCatError) -> Order? {
        try await storage { try await database.read { try OrderRow.find(id, on: $0) } }
    }

    /// The order's own row alone: one statement, where ``find(_:)`` is four.
    package func standing(of id: OrderID) async throws(KeyCatError) -> OrderStanding? {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT id, merchant_uid, buyer_id, amount, status, imp_uid, expires_at FROM orders WHERE id = ?",
                    [.integer(id.rawValue)]) { row in
                    OrderStanding(id: OrderID(row.int64(0)), merchantUID: row.string(1), buyerID: UserID(row.int64(2)),
                                  amount: Money(won: row.int64(3)), status: try OrderRow.status(row, at: 4),
                                  impUID: row.optionalString(5), expiresAt: StoredTime.date(row.int64(6)))
                }
            }
        }
    }

    package func find(merchantUID: String) async throws(KeyCatError) -> Order? {
        try await storage {
            try await database.read { try OrderRow.find(where: "merchant_uid = ?", [.text(merchantUID)], on: $0) }
        }
    }

    package func find(buyer: UserID, requestKey: String) async throws(KeyCatError) -> Order? {
        try await storage {
            try await database.read {
                try OrderRow.find(where: "buyer_id = ? AND request_key = ?", [.integer(buyer.rawValue), .text(requestKey)], on: $0)
            }
        }
    }

    /// One statement on either store (``listSQL(_:after:)``), then the page's lines, parcels and
    /// addresses in one batch.
    package func list(_ filter: OrderFilter, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Order] {
        let (sql, arguments) = Self.listSQL(filter, after: position)
        return try await storage {
            try await database.read { connection in
                try OrderRow.withLines(try connection.query(sql, arguments + [.int(limit)], OrderRow.decode), on: connection)
            }
        }
    }

    /// The order list's statement, newest first, its last parameter the limit. Each filter reads
    /// in the order of an index, so a page costs its own rows whatever lies past it:
    /// `orders_by_status`, `orders_by_buyer` or `orders_newest` (`created_at`, `id`) narrowed to
    /// the placing window; with a seller, the seller's parcels by `shipments_by_seller`
    /// (`seller_id`, `created_at`, `order_id`), each joined to its order by key. A parcel is
    /// written with its order and keeps the order's `created_at` (its migration copied it for
    /// older orders), and an order has at most one parcel per seller, so walking a seller's
    /// parcels is walking their orders, in the orders' own keyset order, each once.
    static func listSQL(_ filter: OrderFilter, after position: CursorPosition?) -> (sql: String, arguments: [SQLValue]) {
        // With a seller the order's time and id are read from the parcel: the index's columns.
        let (from, time, id) = filter.sellerID == nil
            ? ("orders o", "o.created_at", "o.id")
            : ("shipments s JOIN orders o ON o.id = s.order_id", "s.created_at", "s.order_id")
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let seller = filter.sellerID { conditions.append("s.seller_id = ?"); arguments.append(.integer(seller.rawValue)) }
        if let status = filter.status { conditions.append("o.status = ?"); arguments.append(.text(status.rawValue)) }
        if let buyer = filter.buyerID { conditions.append("o.buyer_id = ?"); arguments.append(.integer(buyer.rawValue)) }
        if let since = filter.placedFromMilliseconds { conditions.append("\(time) >= ?"); arguments.append(.integer(since)) }
        if let before = filter.placedBeforeMilliseconds { conditions.append("\(time) < ?"); arguments.append(.integer(before)) }
        if let position {
            // `(time, id) < (T, I)` spelled with a bound on the time alone first, which both
            // planners turn into the end of the index range (the `OR` alone they cannot).
            conditions.append("\(time) <= ? AND (\(time) < ? OR \(id) < ?)")
            arguments += [.integer(position.sortKey), .integer(position.sortKey), .integer(position.id)]
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT \(OrderRow.prefixedColumns) FROM \(from)\(whereClause) ORDER BY \(time) DESC, \(id) DESC LIMIT ?", arguments)
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
    /// never run again for a conflict. It takes the units of the lines sold on payment, each with
    /// the conditional `UPDATE … WHERE stock >= ?`; a product sold out meanwhile throws
    /// `outOfStock` and the move is taken back. On Postgres its first exchange also takes the
    /// payment's turn after a catch-up of the search index (``SearchIndex/catchUpTurn``), before
    /// it locks anything. Every other move stays `SERIALIZABLE`: shipping checks that
    /// no refund is pending, which a refund starting beside it could make untrue.
    package func apply(_ transition: OrderTransition, at now: Date) async throws(KeyCatError) -> Order? {
        let isolation: SQLIsolation = transition.from == .awaitingPayment && transition.to == .paid ? .readCommitted : .serializable
        return try await storage {
            try await database.write(isolation: isolation) { connection in
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
                if transition.from == .awaitingPayment, transition.to == .paid {
                    // The move answers how many of its lines are sold on payment, so an order
                    // that held all its units costs no statement more.
                    sql += """
                         RETURNING (SELECT count(*) FROM order_lines
                                    WHERE order_lines.order_id = orders.id AND order_lines.stock_taken = 0)
                        """
                    var exchange: [SQLStatement<Database.Connection.Row>] = []
                    if connection.dialect.store == .postgres, transition.payment?.status == .paid {
                        // Its units sold wait for a catch-up of the search index in flight: the
                        // turn comes before the payment locks anything, in the same exchange.
                        exchange.append(.run(SearchIndex.catchUpTurn, []))
                    }
                    var soldOnPayment: Int?
                    exchange.append(.query(sql, arguments) { soldOnPayment = $0.int(0) })
                    try connection.batch(exchange)
                    guard let soldOnPayment else { return nil }
                    if soldOnPayment > 0 { try Self.takeLinesSoldOnPayment(of: transition.orderID, at: now, on: connection) }
                } else {
                    guard try connection.run(sql, arguments) == 1 else { return nil }
                }
                if transition.returnsStock { try OrderRow.returnStock(of: transition.orderID, as: .orderReturned, at: now, on: connection) }
                let statements = Self.moveStatements(transition, at: now, dialect: connection.dialect)
                    + Self.eventStatements(transition, at: now, on: connection)
                return try OrderRow.run(statements, thenFind: transition.orderID, endingTransaction: true, on: connection)
            }
        }
    }

    /// What a move that happened writes besides the order's row, none depending on another's
    /// result: the payment and its sale entries, the parcels moved or cancelled with the order,
    /// the cart emptied of what was bought, the audit entry.
    private static func moveStatements(_ transition: OrderTransition, at now: Date, dialect: SQLDialect)
        -> [SQLStatement<Database.Connection.Row>] {
        let orderID = SQLValue.integer(transition.orderID.rawValue)
        var statements: [SQLStatement<Database.Connection.Row>] = []
        if let payment = transition.payment {
            statements.append(.run(insertPaymentSQL, paymentValues(payment, at: now)))
            if payment.status == .paid, transition.to == .paid {
                statements.append(SettlementLedger.saleStatement(of: transition.orderID, paymentImpUID: payment.impUID, at: now))
                // Units sold rank search results; kept beside the index, so no `products` row moves.
                statements.append(SearchIndex.countSales(of: transition.orderID, dialect: dialect))
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

    /// The event a move reports, its figures read from the order's row as the move left it:
    /// `order.paid`, `order.cancelled` (cancelled or expired unpaid; a paid order's cancel is a
    /// refund's, ``completeRefund(_:audit:at:)``), `payment.failed`. A whole order's legacy
    /// ship or deliver (an order from before parcels) reports nothing; parcels report their own.
    private static func eventStatements(
        _ transition: OrderTransition, at now: Date, on connection: Database.Connection
    ) -> [SQLStatement<Database.Connection.Row>] {
        let aggregate = EventAggregate(.order, transition.orderID.rawValue)
        let event: DomainEvent
        switch transition.to {
        case .paid:
            event = DomainEvent(.orderPaid, at: now, aggregate: aggregate, data: [
                "imp_uid": .optional(transition.payment?.impUID), "paid_at": .time(now),
            ])
        case .cancelled, .expired:
            event = DomainEvent(.orderCancelled, at: now, aggregate: aggregate, data: [
                "cause": .string(transition.to == .expired ? "expired" : "cancelled"), "paid": false,
            ])
        case .failed:
            event = DomainEvent(.paymentFailed, at: now, aggregate: aggregate, data: [
                "imp_uid": .optional(transition.payment?.impUID), "reason": .optional(transition.audit?.detail),
            ])
        default:
            return []
        }
        return [EventOutbox.statement(event, reading: .order, row: transition.orderID.rawValue,
                                      on: connection)]
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

    package func setOutcomeUnknown(_ id: OrderID, _ unknown: Bool) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                // Only an order whose mark changes is written: reconciliation clears the mark of
                // every order still within its grace on every run, and rewriting an unchanged row
                // leaves Postgres a dead row version and WAL for nothing.
                try connection.run("UPDATE orders SET outcome_unknown = ? WHERE id = ? AND status = 'awaiting_payment' AND outcome_unknown <> ?",
                                   [.bool(unknown), .integer(id.rawValue), .bool(unknown)])
            }
        }
    }

    package func ordersToReconcile(at now: Date, limit: Int) async throws(KeyCatError) -> [Order] {
        try await storage {
            try await database.read { connection in
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
