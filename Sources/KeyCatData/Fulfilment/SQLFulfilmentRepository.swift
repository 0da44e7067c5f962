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
                    arguments.append(StoredTime.value(move.carrierDeliveredAt ?? now))
                    if let carrierDelivered = move.carrierDeliveredAt {
                        sql += ", carrier_status = 'delivered', carrier_delivered_at = ?"
                        arguments.append(StoredTime.value(carrierDelivered))
                    }
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
                    """
                arguments += [.integer(move.shipmentID.rawValue), .text(move.from.rawValue)]
                if let claimed = move.trackingClaimedAt {
                    // The carrier's answer is about the number asked, unless it was corrected since.
                    sql += " AND carrier_checked_at = ?"
                    arguments.append(StoredTime.value(claimed))
                }
                if let use = move.numberUse, let carrier = move.carrier, let number = move.trackingNumber {
                    sql += " AND NOT " + Self.numberTaken(besides: "shipments", use)
                    arguments += Self.numberTakenArguments(carrier, number, use)
                }
                sql += " RETURNING order_id"
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
