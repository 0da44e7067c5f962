import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Shipments, the sellers' desk, line refunds and address anonymising, over either store. Every
/// move is a conditional `UPDATE … WHERE status = ?` in one transaction with the order's status
/// derived from its shipments, so two servers shipping the same parcel agree on one winner.
package struct SQLFulfilmentRepository<Database: SQLDatabase>: FulfilmentRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    package func shipment(_ id: ShipmentID) async throws(KeyCatError) -> Shipment? {
        try await storage {
            try await database.read { connection in
                guard var shipment = try ShipmentRow.shipments(where: "s.id = ?", [.integer(id.rawValue)], on: connection)
                    .values.first?.first else { return nil }
                shipment.lines = try connection.query("SELECT line FROM order_lines WHERE shipment_id = ? ORDER BY line",
                                                      [.integer(id.rawValue)]) { $0.int(0) }
                return shipment
            }
        }
    }

    package func apply(_ move: ShipmentMove, at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                var sql = "UPDATE shipments SET status = ?, updated_at = ?"
                var arguments: [SQLValue] = [.text(move.to.rawValue), StoredTime.value(now)]
                switch move.to {
                case .shipped:
                    sql += ", carrier = ?, tracking_number = ?, shipped_at = ?"
                    arguments += [.optional(move.carrier.map { .text($0.code) }), .optional(move.trackingNumber.map(SQLValue.text)),
                                  StoredTime.value(now)]
                case .delivered:
                    sql += ", delivered_at = ?"
                    arguments.append(StoredTime.value(now))
                case .pending, .cancelled:
                    break
                }
                // Only the parcel of an order that holds a payment moves, and none while a refund
                // of the order is pending (a cancel racing the shipment).
                sql += """
                     WHERE id = ? AND status = ?
                      AND EXISTS (SELECT 1 FROM orders o WHERE o.id = shipments.order_id
                                  AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))
                      AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = shipments.order_id AND r.status = 'pending')
                    RETURNING order_id
                    """
                arguments += [.integer(move.shipmentID.rawValue), .text(move.from.rawValue)]
                // The parcel's move and its order's parcels read after it, in one batch; the
                // order's status, its carrier and the audit entry in the last, with the COMMIT (on
                // Postgres: two round trips for the whole move).
                var orderID: OrderID?
                var statuses: [ShipmentStatus] = []
                try connection.batch([
                    .query(sql, arguments) { orderID = OrderID($0.int64(0)) },
                    .query("SELECT status FROM shipments WHERE order_id = (SELECT order_id FROM shipments WHERE id = ?)",
                           [.integer(move.shipmentID.rawValue)]) { statuses.append(ShipmentStatus(rawValue: $0.string(0)) ?? .pending) },
                ])
                guard let orderID else { return false }
                var statements: [SQLStatement<Database.Connection.Row>] = Self.orderStatusStatements(orderID, given: statuses, at: now)
                if move.to == .shipped, let carrier = move.carrier {
                    // The order's own carrier is the last parcel's, for clients that read only it.
                    statements.append(.run("UPDATE orders SET carrier = ?, tracking_number = ? WHERE id = ?",
                                           [.text(carrier.code), .optional(move.trackingNumber.map(SQLValue.text)),
                                            .integer(orderID.rawValue)]))
                }
                if let audit = move.audit { statements.append(AuditLogTable.statement(audit)) }
                if let type = [ShipmentStatus.shipped: EventType.shipmentShipped, .delivered: .shipmentDelivered][move.to] {
                    let event = DomainEvent(type, at: now, aggregate: EventAggregate(.shipment, move.shipmentID.rawValue), data: [:])
                    statements.append(EventOutbox.statement(event, reading: .shipment, row: move.shipmentID.rawValue,
                                                            on: connection))
                }
                try connection.batch(statements, endingTransaction: true)
                return true
            }
        }
    }

    /// Sets an order in `paid`, `shipped` or `delivered` to the status its shipments give
    /// (``Fulfilment``), and its delivery time when it becomes delivered.
    static func deriveOrderStatus(_ id: OrderID, at now: Date, on connection: some SQLConnection) throws {
        let statuses = try connection.query("SELECT status FROM shipments WHERE order_id = ?", [.integer(id.rawValue)]) {
            ShipmentStatus(rawValue: $0.string(0)) ?? .pending
        }
        try connection.batch(orderStatusStatements(id, given: statuses, at: now))
    }

    /// The statement of ``deriveOrderStatus(_:at:on:)`` for an order whose shipments are in
    /// `statuses` (none when they give no status), for a batch.
    static func orderStatusStatements<Row>(_ id: OrderID, given statuses: [ShipmentStatus], at now: Date) -> [SQLStatement<Row>] {
        guard let next = Fulfilment.of(statuses).orderStatus else { return [] }
        return [.run("""
            UPDATE orders SET status = ?, updated_at = ?,
                delivered_at = CASE WHEN CAST(? AS TEXT) = 'delivered' THEN coalesce(delivered_at, ?) ELSE delivered_at END
            WHERE id = ? AND status IN ('paid', 'shipped', 'delivered') AND status <> ?
            """, [.text(next.rawValue), StoredTime.value(now), .text(next.rawValue), StoredTime.value(now),
                  .integer(id.rawValue), .text(next.rawValue)])]
    }

    package func sellerOrders(_ seller: UserID, status: ShipmentStatus?, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [SellerOrder] {
        var conditions = ["s.seller_id = ?", "o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded', 'refunded', 'cancelled')",
                          "o.paid_at IS NOT NULL"]
        var arguments: [SQLValue] = [.integer(seller.rawValue)]
        if let status { conditions.append("s.status = ?"); arguments.append(.text(status.rawValue)) }
        if let position {
            conditions.append("(s.created_at < ? OR (s.created_at = ? AND s.order_id < ?))")
            arguments += [.integer(position.sortKey), .integer(position.sortKey), .integer(position.id)]
        }
        return try await storage {
            try await database.read { connection in
                let rows = try connection.query("""
                    SELECT \(OrderRow.prefixedColumns), u.nick, s.id FROM shipments s
                    JOIN orders o ON o.id = s.order_id JOIN users u ON u.id = o.buyer_id
                    WHERE \(conditions.joined(separator: " AND "))
                    ORDER BY s.created_at DESC, s.order_id DESC LIMIT ?
                    """, arguments + [.int(limit)]) { row in
                    (order: try OrderRow.decode(row), nick: row.string(16), shipment: ShipmentID(row.int64(17)))
                }
                let orders = try OrderRow.withLines(rows.map(\.order), on: connection)
                return zip(rows, orders).compactMap { row, order in
                    guard let shipment = order.shipments.first(where: { $0.id == row.shipment }) else { return nil }
                    // A cancelled parcel never left (only a pending one is cancelled) and never
                    // will: its seller has nothing to send, so no longer sees where it would have gone.
                    return SellerOrder(
                        orderID: order.id, merchantUID: order.merchantUID, status: order.status, buyerNick: row.nick, shipment: shipment,
                        lines: shipment.lines.filter { order.lines.indices.contains($0) }.map { (position: $0, line: order.lines[$0]) },
                        shippingAddress: shipment.status == .cancelled ? nil : order.shippingAddress,
                        createdAt: order.createdAt, paidAt: order.paidAt)
                }
            }
        }
    }

    package func beginLineRefund(orderID: OrderID, expectedStatus: OrderStatus, shipmentID: ShipmentID, lines: [Int], amount part: Money?,
                                 reason: String, restock: Bool, cancelling: Bool, bySeller: Bool, requestKey: String?, requestFingerprint: String?,
                                 at now: Date) async throws(KeyCatError) -> Refund {
        try await storage {
            try await database.write { connection in
                guard let order = try OrderRow.find(orderID, on: connection) else { throw KeyCatError.notFound("order", orderID) }
                guard order.status == expectedStatus else {
                    throw KeyCatError(.illegalTransition, "order \(orderID) became \(order.status.rawValue) meanwhile; read it again")
                }
                guard let shipment = order.shipments.first(where: { $0.id == shipmentID }) else {
                    throw KeyCatError.notFound("shipment", shipmentID)
                }
                if cancelling {
                    guard !shipment.hasLeft else { throw KeyCatError.parcelLeft(shipment) }
                    try shipment.status.checkMove(to: .cancelled)
                }
                if bySeller, shipment.confirmedAt != nil {
                    throw KeyCatError(.illegalTransition, "shipment \(shipmentID)'s receipt was confirmed: it is payable to its seller, "
                                      + "and only an operator refunds it now", context: ["status": shipment.status.rawValue])
                }
                guard try !OrderRow.hasPendingRefund(orderID, on: connection) else {
                    throw KeyCatError(.requestInProgress, "another refund of order \(orderID) is in progress; retry later")
                }
                // What each line and the fee still hold: the ledger's figures (a part of the
                // parcel's value refunded earlier lowers them), or for an order paid before the
                // ledger, the lines' totals.
                let holdings = try SettlementLedger.holdings(of: orderID, on: connection).filter { $0.shipment == shipmentID.rawValue }
                let ledger = holdings.isEmpty ? nil : Dictionary(holdings.map { ($0.line, $0.amount) }, uniquingKeysWith: +)
                var total: Int64 = 0
                for position in lines {
                    guard shipment.lines.contains(position), order.lines.indices.contains(position) else {
                        throw KeyCatError.validation("lines", "line \(position) is not in shipment \(shipmentID)")
                    }
                    guard order.lines[position].refundedAt == nil else {
                        throw KeyCatError(.illegalTransition, "line \(position) of order \(orderID) is already refunded",
                                          context: ["line": "\(position)"])
                    }
                    total += try ledger.map { $0[position] ?? 0 } ?? order.lines[position].total().won
                }
                // The parcel's fee goes back when nothing of it is left to send and it never left.
                let remaining = shipment.lines.filter { !lines.contains($0) && order.lines[$0].refundedAt == nil }
                let includesFee = part == nil && remaining.isEmpty && shipment.status == .pending && shipment.deliveryFee > .zero
                if includesFee { total += ledger.map { $0[nil] ?? 0 } ?? shipment.deliveryFee.won }
                if let part {
                    // A part of the parcel's value: up to what its lines and fee still hold.
                    let held = try ledger.map { $0.values.reduce(0, +) }
                        ?? shipment.lines.filter { order.lines[$0].refundedAt == nil }
                            .reduce(shipment.deliveryFee.won) { try $0 + order.lines[$1].total().won }
                    guard part.won <= held else {
                        throw KeyCatError(.cancelAmountExceedsCancellable, "shipment \(shipmentID) holds \(Money(won: held)) to refund",
                                          context: ["refundable": "\(held)"])
                    }
                    total = part.won
                }
                let balance = order.refundableAmount
                let amount = Money(won: min(total, balance.won))
                guard amount > .zero else {
                    throw KeyCatError(.cancelAmountExceedsCancellable, "nothing of these lines is left to refund",
                                      context: ["refundable": "\(balance.won)"])
                }
                let target: OrderStatus = amount == balance ? .refunded : .partiallyRefunded
                try order.status.checkMove(to: target)
                let lineList = lines.map(String.init).joined(separator: ",")
                let id = try connection.insertReturningID("""
                    INSERT INTO refunds (order_id, amount, checksum, reason, restock, target, status, created_at, updated_at,
                                         request_key, request_fingerprint, shipment_id, refund_lines, includes_fee)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(orderID.rawValue), .integer(amount.won), .integer(balance.won), .text(reason), .bool(restock),
                          .text(target.rawValue), StoredTime.value(now), StoredTime.value(now),
                          .optional(requestKey.map(SQLValue.text)), .optional(requestFingerprint.map(SQLValue.text)),
                          .integer(shipmentID.rawValue), .text(lineList), .bool(includesFee)])
                return Refund(id: id, orderID: orderID, amount: amount, checksum: balance, reason: reason, restock: restock,
                              target: target, status: .pending, createdAt: now, requestKey: requestKey,
                              requestFingerprint: requestFingerprint,
                              lineRefund: LineRefund(shipmentID: shipmentID, lines: lines, includesDeliveryFee: includesFee))
            }
        }
    }

    /// What completing a line refund does besides the money (``SQLOrderRepository/completeRefund``):
    /// marks its lines refunded, gives their units back when it restocks, cancels a shipment
    /// left with nothing to send, and records an approved return of a parcel left with nothing
    /// to refund as refunded.
    static func completeLines(of refund: Refund, _ lineRefund: LineRefund, at now: Date, on connection: some SQLConnection) throws {
        try completeLines(lineRefund, of: refund.orderID, restock: refund.restock, at: now, on: connection)
    }

    /// ``completeLines(of:_:at:on:)`` for `order`'s lines, whether or not money moved.
    static func completeLines(_ lineRefund: LineRefund, of order: OrderID, restock: Bool, at now: Date,
                              on connection: some SQLConnection) throws {
        let positions = "[" + lineRefund.lines.map(String.init).joined(separator: ",") + "]"
        let inLines = "AND line IN (\(connection.dialect.integersFromJSON))"
        try connection.run("UPDATE order_lines SET refunded_at = ? WHERE order_id = ? \(inLines)",
                           [StoredTime.value(now), .integer(order.rawValue), .text(positions)])
        if restock {
            try OrderRow.returnLines(of: order, where: inLines, [.text(positions)], as: .refundRestock, at: now, on: connection)
        }
        try connection.run("""
            UPDATE shipments SET status = 'cancelled', updated_at = ?
            WHERE id = ? AND status = 'pending'
              AND NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = shipments.id AND l.refunded_at IS NULL)
            """, [StoredTime.value(now), .integer(lineRefund.shipmentID.rawValue)])
        // An approved return of the parcel is seen through once nothing of the parcel is left to
        // refund, in the transaction that refunds its last lines, whoever sent the refund.
        try connection.run("""
            UPDATE return_requests SET refunded_at = ?
            WHERE order_id = ? AND shipment_id = ? AND status = 'approved' AND refunded_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = return_requests.shipment_id AND l.refunded_at IS NULL)
            """, [StoredTime.value(now), .integer(order.rawValue), .integer(lineRefund.shipmentID.rawValue)])
        try deriveOrderStatus(order, at: now, on: connection)
    }

    package func closeReturnHoldingNothing(_ request: ReturnRequest, restock: Bool, audit: AuditEntry,
                                           at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                guard let order = try OrderRow.find(request.orderID, on: connection),
                      let shipment = order.shipments.first(where: { $0.id == request.shipmentID }) else { return false }
                // No refund beside it: one pending may be about to give back the very lines.
                let lines = shipment.lines.filter { order.lines.indices.contains($0) && order.lines[$0].refundedAt == nil }
                guard try !OrderRow.hasPendingRefund(order.id, on: connection), !lines.isEmpty else { return false }
                let holdings = try SettlementLedger.holdings(of: order.id, on: connection).filter { $0.shipment == shipment.id.rawValue }
                // Only the ledger says what a line holds; an order from before it always holds its lines.
                guard !holdings.isEmpty, lines.allSatisfy({ line in holdings.filter { $0.line == line }.reduce(0) { $0 + $1.amount } <= 0 })
                else { return false }
                try Self.completeLines(LineRefund(shipmentID: shipment.id, lines: lines, includesDeliveryFee: false), of: order.id,
                                       restock: restock, at: now, on: connection)
                try AuditLogTable.insert(audit, on: connection)
                return true
            }
        }
    }

    package func anonymiseAddresses(closedBefore cutoff: Date, limit: Int, at now: Date) async throws(KeyCatError) -> Int {
        try await storage {
            try await database.write { connection in
                // Closed: no parcel pending or on its way, and the last move was before the cutoff.
                try Self.anonymise("""
                    o.updated_at < ? AND NOT EXISTS (
                        SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.status IN ('pending', 'shipped')
                          AND o.status IN ('awaiting_payment', 'paid', 'shipped', 'delivered', 'partially_refunded'))
                      AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND coalesce(s.delivered_at, 0) >= ?)
                    """, [StoredTime.value(cutoff), StoredTime.value(cutoff)], limit: limit, at: now, on: connection)
            }
        }
    }

    /// Blanks the addresses of the orders `o` matching `condition` — recipient, phone, street,
    /// detail and request; the postcode keeps its district (`06000`) — at most `limit`.
    @discardableResult
    static func anonymise(_ condition: String, _ arguments: [SQLValue], limit: Int = Int(Int32.max), at now: Date,
                          on connection: some SQLConnection) throws -> Int {
        try connection.run("""
            UPDATE order_addresses SET recipient = '', phone = '', road_address = '', detail = '', request = '',
                postcode = substr(postcode, 1, 2) || '000', anonymised_at = ?
            WHERE anonymised_at IS NULL AND order_id IN (
                SELECT o.id FROM orders o WHERE \(condition) ORDER BY o.id LIMIT ?)
            """, [StoredTime.value(now)] + arguments + [.int(limit)])
    }
}

extension EventOutbox.RowReading {
    /// What a parcel's event reads from its row (docs/events.md): which order and seller, where
    /// it went with which carrier; the buyer, so a receiver can tell them, but not the address.
    static let shipment = EventOutbox.RowReading([
        "shipment_id": "t.id", "order_id": "t.order_id", "seller_id": "t.seller_id",
        "buyer_id": "(SELECT o.buyer_id FROM orders o WHERE o.id = t.order_id)", "status": "t.status",
        "carrier": "t.carrier", "tracking_number": "t.tracking_number",
    ], from: "shipments")
}
