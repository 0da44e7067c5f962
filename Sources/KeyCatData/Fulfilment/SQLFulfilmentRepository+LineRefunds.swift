import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Line refunds: recording one before the PG is called, completing it once the PG has acted (or
/// with no money to move), in the transaction of the refund's own.
extension SQLFulfilmentRepository {
    package func beginLineRefund(orderID: OrderID, expectedStatus: OrderStatus, shipmentID: ShipmentID, lines: [Int], amount part: Money?,
                                 reason: String, restock: Bool, cancelling: Bool, bySeller: Bool, requestKey: String?, requestFingerprint: String?,
                                 requestedBy: String, at now: Date) async throws(KeyCatError) -> Refund {
        try await storage {
            try await database.write { connection in
                let order = try OrderRow.find(orderID, stillIn: expectedStatus, on: connection)
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
                // Paid out without a confirmation (before 2026-12-01 a parcel with every line
                // refunded settled its fee at once): what a seller gave back now would be a debt
                // against pay already taken, which they may never earn back. An operator decides.
                if bySeller, try connection.queryOne("""
                    SELECT 1 FROM settlement_entries WHERE order_id = ? AND shipment_id = ? AND settlement_id IS NOT NULL LIMIT 1
                    """, [.integer(orderID.rawValue), .integer(shipmentID.rawValue)], { _ in true }) != nil {
                    throw KeyCatError(.illegalTransition, "shipment \(shipmentID) was paid out in a settlement: only an operator refunds "
                                      + "it now", context: ["status": shipment.status.rawValue])
                }
                guard try !OrderRow.hasPendingRefund(orderID, on: connection) else {
                    throw KeyCatError(.requestInProgress, "another refund of order \(orderID) is in progress; retry later")
                }
                // What each line and the fee still hold: the ledger's figures (a part of the
                // parcel's value refunded earlier lowers them), or for an order paid before the
                // ledger, the lines' totals, the parcel as a whole capped by what its earlier
                // refunds left (``legacyHeld(by:of:on:)``).
                let holdings = try SettlementLedger.holdings(of: orderID, on: connection).filter { $0.shipment == shipmentID.rawValue }
                let ledger = holdings.isEmpty ? nil : Dictionary(holdings.map { ($0.line, $0.amount) }, uniquingKeysWith: +)
                let legacyHeld = try ledger == nil
                    ? Self.legacyHeld(by: shipment, of: order, on: connection) : nil
                // An order-wide refund of such an order names no parcel: whose goods it gave
                // back no row says, so what any parcel still holds is an operator's call.
                if bySeller, legacyHeld != nil, try connection.queryOne("""
                    SELECT 1 FROM refunds WHERE order_id = ? AND shipment_id IS NULL AND status = 'done' LIMIT 1
                    """, [.integer(orderID.rawValue)], { _ in true }) != nil {
                    throw KeyCatError(.illegalTransition, "order \(orderID) was paid before the settlement ledger and refunded by "
                                      + "amount across its parcels: only an operator refunds it now", context: ["status": shipment.status.rawValue])
                }
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
                    let held = ledger.map { $0.values.reduce(0, +) } ?? legacyHeld ?? 0
                    guard part.won <= held else {
                        throw KeyCatError(.cancelAmountExceedsCancellable, "shipment \(shipmentID) holds \(Money(won: held)) to refund",
                                          context: ["refundable": "\(held)"])
                    }
                    total = part.won
                } else if let legacyHeld {
                    total = min(total, legacyHeld)
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
                                         request_key, request_fingerprint, shipment_id, refund_lines, includes_fee, requested_by)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(orderID.rawValue), .integer(amount.won), .integer(balance.won), .text(reason), .bool(restock),
                          .text(target.rawValue), StoredTime.value(now), StoredTime.value(now),
                          .optional(requestKey.map(SQLValue.text)), .optional(requestFingerprint.map(SQLValue.text)),
                          .integer(shipmentID.rawValue), .text(lineList), .bool(includesFee), .text(requestedBy)])
                return Refund(id: id, orderID: orderID, amount: amount, checksum: balance, reason: reason, restock: restock,
                              target: target, status: .pending, createdAt: now, requestKey: requestKey,
                              requestFingerprint: requestFingerprint,
                              lineRefund: LineRefund(shipmentID: shipmentID, lines: lines, includesDeliveryFee: includesFee),
                              requestedBy: requestedBy)
            }
        }
    }

    /// What a parcel of an order paid before the settlement ledger (migration 17) still holds
    /// to refund: its lines not refunded and its fee, less what the parcel's earlier refunds of
    /// a part of its value gave back, and without the fee once a refund gave it back. Such an
    /// order has no ledger to say what each line holds, so without this cap a seller could give
    /// back a part of their parcel again and again, up to the whole order's balance: the other
    /// sellers' goods paid for by the shop.
    static func legacyHeld(by shipment: Shipment, of order: Order, on connection: some SQLConnection) throws -> Int64 {
        let (parts, feeGivenBack) = try connection.queryOne("""
            SELECT coalesce(sum(CASE WHEN coalesce(refund_lines, '') = '' THEN amount ELSE 0 END), 0), coalesce(max(includes_fee), 0)
            FROM refunds WHERE order_id = ? AND shipment_id = ? AND status = 'done'
            """, [.integer(order.id.rawValue), .integer(shipment.id.rawValue)]) { ($0.int64(0), $0.int64(1) == 1) } ?? (0, false)
        let lines = try shipment.lines.filter { order.lines.indices.contains($0) && order.lines[$0].refundedAt == nil }
            .reduce(Int64(0)) { try $0 + order.lines[$1].total().won }
        return max(0, lines + (feeGivenBack ? 0 : shipment.deliveryFee.won) - parts)
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
                // The ledger says what each line holds; for an order from before it, what the
                // parcel as a whole still holds (``legacyHeld(by:of:on:)``).
                let holdsNothing = try holdings.isEmpty
                    ? Self.legacyHeld(by: shipment, of: order, on: connection) == 0
                    : lines.allSatisfy { line in holdings.filter { $0.line == line }.reduce(0) { $0 + $1.amount } <= 0 }
                guard holdsNothing else { return false }
                try Self.completeLines(LineRefund(shipmentID: shipment.id, lines: lines, includesDeliveryFee: false), of: order.id,
                                       restock: restock, at: now, on: connection)
                try connection.batch([SearchIndex.recountSales(of: order.id, dialect: connection.dialect)])
                try AuditLogTable.insert(audit, on: connection)
                return true
            }
        }
    }
}
