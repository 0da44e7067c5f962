import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Purchase confirmation (구매확정) and return requests, over either store: each move a
/// conditional update in one transaction with its audit entry.
extension SQLFulfilmentRepository {
    /// The condition (on `s`, a shipment, and `o`, its order) of a parcel whose receipt may be
    /// confirmed: delivered, not confirmed, its order holding its payment, no refund of the
    /// order pending (its outcome could be money back that a close would otherwise pay the
    /// seller first), and no return of it asked for and open or disputed, nor approved with
    /// lines not refunded yet (the approval's refund did not go through: confirming would make
    /// the parcel payable to a seller who owes its money back).
    static var confirmable: String {
        """
        s.status = 'delivered' AND s.confirmed_at IS NULL
          AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded')
          AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.order_id = o.id AND f.status = 'pending')
          AND NOT EXISTS (SELECT 1 FROM return_requests r WHERE r.shipment_id = s.id
                            AND (r.status IN ('requested', 'disputed')
                                 OR r.status = 'approved'
                                    AND EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = s.id AND l.refunded_at IS NULL)))
        """
    }

    package func confirmReceipt(of shipment: ShipmentID, by who: ReceiptConfirmation, audit: AuditEntry,
                                at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let confirmed = try connection.run("""
                    UPDATE shipments SET confirmed_at = ?, confirmed_by = ?, updated_at = ?
                    WHERE id = ? AND EXISTS (SELECT 1 FROM shipments s JOIN orders o ON o.id = s.order_id
                                             WHERE s.id = shipments.id AND \(Self.confirmable))
                    """, [StoredTime.value(now), .text(who.rawValue), StoredTime.value(now), .integer(shipment.rawValue)])
                guard confirmed == 1 else { return false }
                try AuditLogTable.insert(audit, on: connection)
                try Self.appendReceiptEvent(shipment.rawValue, by: who.rawValue, at: now, on: connection)
                return true
            }
        }
    }

    package func confirmDelivered(before cutoff: Date, rejectedSince: Date, tracking: TrackingCutoffs?, limit: Int,
                                  at now: Date) async throws(KeyCatError) -> Int {
        // With tracking, the carrier's delivery counts, once known long enough for the buyer to
        // be told; a parcel no carrier delivered waits until it also shipped long enough ago
        // (parcels from before shipments have no shipping time: their delivery stands for it).
        let delivered = tracking == nil ? "s.delivered_at < ?" : """
            (s.carrier_delivered_at < ? AND s.carrier_checked_at < ?
             OR s.carrier_delivered_at IS NULL AND s.delivered_at < ? AND COALESCE(s.shipped_at, s.delivered_at) < ?)
            """
        let deliveredArguments = tracking.map {
            [StoredTime.value(cutoff), StoredTime.value($0.noticedBefore), StoredTime.value(cutoff), StoredTime.value($0.untrackedShippedBefore)]
        } ?? [StoredTime.value(cutoff)]
        let basis = tracking.map { " by its carrier, or shipped before \($0.untrackedShippedBefore)" } ?? ""
        let disputable = Self.disputableRejection(rejectedSince: rejectedSince, tracking: tracking)
        return try await storage {
            try await database.write { connection in
                let confirmed = try connection.query("""
                    UPDATE shipments SET confirmed_at = ?, confirmed_by = 'auto', updated_at = ?
                    WHERE id IN (SELECT s.id FROM shipments s JOIN orders o ON o.id = s.order_id
                                 WHERE \(Self.confirmable) AND \(delivered)
                                   AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.seller_id AND u.suspended_at IS NOT NULL)
                                   AND NOT EXISTS (SELECT 1 FROM return_requests r WHERE r.shipment_id = s.id
                                                     AND \(disputable.sql))
                                 ORDER BY s.delivered_at, s.id LIMIT ?)
                    RETURNING id, order_id
                    """, [StoredTime.value(now), StoredTime.value(now)] + deliveredArguments + disputable.arguments + [.int(limit)]) {
                    (shipment: $0.int64(0), order: $0.int64(1))
                }
                for parcel in confirmed {
                    try AuditLogTable.insert(AuditEntry(
                        actor: "system:reconcile", action: "shipment.confirm", target: "shipment:\(parcel.shipment)",
                        detail: "order \(parcel.order), delivered before \(cutoff)\(basis): confirmed automatically", at: now), on: connection)
                    try Self.appendReceiptEvent(parcel.shipment, by: "auto", at: now, on: connection)
                }
                return confirmed.count
            }
        }
    }

    /// `shipment.receipt_confirmed`, with who confirmed it (`buyer`, `operator`, `auto`).
    private static func appendReceiptEvent(_ shipment: Int64, by who: String, at now: Date, on connection: Database.Connection) throws {
        let event = DomainEvent(.shipmentReceiptConfirmed, at: now, aggregate: EventAggregate(.shipment, shipment),
                                data: ["confirmed_by": .string(who)])
        try connection.batch([EventOutbox.statement(event, reading: .shipment, row: shipment, on: connection)])
    }

    package func requestReturn(of shipment: ShipmentID, reason: String, audit: AuditEntry, at now: Date) async throws(KeyCatError) -> ReturnRequest {
        try await storage {
            try await database.write { connection in
                guard let parcel = try connection.queryOne("""
                    SELECT s.status, s.confirmed_at, s.order_id, s.seller_id, o.buyer_id FROM shipments s JOIN orders o ON o.id = s.order_id
                    WHERE s.id = ?
                    """, [.integer(shipment.rawValue)], {
                        (status: $0.string(0), confirmed: !$0.isNull(1), order: OrderID($0.int64(2)), seller: UserID($0.int64(3)),
                         buyer: UserID($0.int64(4)))
                    }) else { throw KeyCatError.notFound("shipment", shipment) }
                guard parcel.status == ShipmentStatus.shipped.rawValue || parcel.status == ShipmentStatus.delivered.rawValue,
                      !parcel.confirmed else {
                    throw KeyCatError(.illegalTransition, parcel.confirmed
                                      ? "shipment \(shipment)'s receipt was confirmed: it can no longer be returned"
                                      : "shipment \(shipment) is \(parcel.status): only a parcel that left is returned",
                                      context: ["status": parcel.status])
                }
                // One request a parcel at a time, and none after one was decided: a buyer asking
                // again and again would hold its confirmation, and its seller's pay, forever. An
                // approved one covers every line of the parcel; while its refund has not gone
                // through, the parcel is still shipped or delivered, and approving it again (or
                // reconciliation) retries that refund: a second request would be a second refund's
                // claim on the same lines.
                let earlier = try connection.query("SELECT status FROM return_requests WHERE shipment_id = ?",
                                                   [.integer(shipment.rawValue)]) { $0.string(0) }
                guard !earlier.contains(ReturnRequest.Status.requested.rawValue) else {
                    throw KeyCatError(.duplicate, "a return of shipment \(shipment) is already asked for", context: ["shipment_id": "\(shipment)"])
                }
                guard !earlier.contains(ReturnRequest.Status.disputed.rawValue) else {
                    throw KeyCatError(.illegalTransition, "the rejected return of shipment \(shipment) is disputed; the shop's operators rule on it",
                                      context: ["shipment_id": "\(shipment)", "status": parcel.status])
                }
                guard !earlier.contains(ReturnRequest.Status.approved.rawValue) else {
                    throw KeyCatError(.illegalTransition, "a return of shipment \(shipment) was approved; it is not asked for twice",
                                      context: ["shipment_id": "\(shipment)", "status": parcel.status])
                }
                guard earlier.isEmpty else {
                    throw KeyCatError(.illegalTransition, "a return of shipment \(shipment) was rejected; it is not asked for twice",
                                      context: ["shipment_id": "\(shipment)", "status": parcel.status])
                }
                let id = try connection.insertReturningID("""
                    INSERT INTO return_requests (shipment_id, order_id, seller_id, buyer_id, reason, status, created_at)
                    VALUES (?, ?, ?, ?, ?, 'requested', ?)
                    """, [.integer(shipment.rawValue), .integer(parcel.order.rawValue), .integer(parcel.seller.rawValue),
                          .integer(parcel.buyer.rawValue), .text(reason), StoredTime.value(now)])
                try AuditLogTable.insert(audit, on: connection)
                let request = ReturnRequest(id: ReturnRequestID(id), shipmentID: shipment, orderID: parcel.order, sellerID: parcel.seller,
                                            buyerID: parcel.buyer, reason: reason, status: .requested, createdAt: now)
                try Self.appendReturnEvent(request, at: now, on: connection)
                return request
            }
        }
    }

    /// `return.requested|approved|rejected|disputed`, on the parcel (so a receiver reads them in
    /// order with its `shipment.*` events): the request's ids and state, no free text — the
    /// buyer's and seller's words are read from the request under the reader's own rights.
    static func appendReturnEvent(_ request: ReturnRequest, at now: Date, on connection: Database.Connection) throws {
        let type: EventType = switch request.status {
        case .requested: .returnRequested
        case .approved: .returnApproved
        case .rejected: .returnRejected
        case .disputed: .returnDisputed
        }
        var fields: [String: EventValue] = [
            "return_id": .integer(request.id.rawValue), "shipment_id": .integer(request.shipmentID.rawValue),
            "order_id": .integer(request.orderID.rawValue), "seller_id": .integer(request.sellerID.rawValue),
            "buyer_id": .integer(request.buyerID.rawValue), "status": .string(request.status.rawValue),
            "disputed": .boolean(request.disputedAt != nil),
        ]
        if type == .returnRejected { fields["disputable"] = .boolean(request.isDisputable) }
        let event = DomainEvent(type, at: now, aggregate: EventAggregate(.shipment, request.shipmentID.rawValue), data: EventData(fields))
        try connection.batch(EventOutbox.statements([event], on: connection))
    }

    static var returnColumns: String {
        "id, shipment_id, order_id, seller_id, buyer_id, reason, status, decision, decided_by, created_at, decided_at, refunded_at, "
            + "dispute, disputed_at, ruling, ruled_by, ruled_at, rejected_by_seller, restock"
    }

    static func decodeReturn(_ row: some SQLRow) -> ReturnRequest {
        ReturnRequest(
            id: ReturnRequestID(row.int64(0)), shipmentID: ShipmentID(row.int64(1)), orderID: OrderID(row.int64(2)),
            sellerID: UserID(row.int64(3)), buyerID: UserID(row.int64(4)), reason: row.string(5),
            status: ReturnRequest.Status(rawValue: row.string(6)) ?? .requested, decision: row.optionalString(7),
            decidedBy: row.optionalString(8), createdAt: StoredTime.date(row.int64(9)), decidedAt: StoredTime.date(row.optionalInt64(10)),
            refundedAt: StoredTime.date(row.optionalInt64(11)), rejectedBySeller: row.bool(17), dispute: row.optionalString(12),
            disputedAt: StoredTime.date(row.optionalInt64(13)), ruling: row.optionalString(14), ruledBy: row.optionalString(15),
            ruledAt: StoredTime.date(row.optionalInt64(16)), restocks: row.bool(18))
    }

    package func returnRequest(_ id: ReturnRequestID) async throws(KeyCatError) -> ReturnRequest? {
        try await storage {
            try await database.read {
                try $0.queryOne("SELECT \(Self.returnColumns) FROM return_requests WHERE id = ?", [.integer(id.rawValue)], Self.decodeReturn)
            }
        }
    }

    package func decideReturn(_ id: ReturnRequestID, _ status: ReturnRequest.Status, decision: String?, restock: Bool, bySeller: Bool,
                              audit: AuditEntry, at now: Date) async throws(KeyCatError) -> ReturnRequest? {
        try await moveReturn(id, set: "status = ?, decision = ?, decided_by = ?, decided_at = ?, restock = ?, rejected_by_seller = ?",
                             [.text(status.rawValue), .optional(decision.map(SQLValue.text)), .text(audit.actor), StoredTime.value(now),
                              .bool(restock), .bool(status == .rejected && bySeller)],
                             where: "status = 'requested'", [], audit: audit, at: now)
    }

    /// One move of a request: `UPDATE … SET set WHERE id = ? AND condition`, and when it moved
    /// the request, `audit` and the event of its new status, in one transaction.
    ///
    /// - Returns: the request as moved, or nil when `condition` no longer held.
    func moveReturn(_ id: ReturnRequestID, set: String, _ setArguments: [SQLValue], where condition: String,
                    _ conditionArguments: [SQLValue], audit: AuditEntry, at now: Date) async throws(KeyCatError) -> ReturnRequest? {
        try await storage {
            try await database.write { connection in
                let moved = try connection.queryOne("""
                    UPDATE return_requests SET \(set) WHERE id = ? AND \(condition)
                    RETURNING \(Self.returnColumns)
                    """, setArguments + [.integer(id.rawValue)] + conditionArguments, Self.decodeReturn)
                if let moved {
                    try AuditLogTable.insert(audit, on: connection)
                    try Self.appendReturnEvent(moved, at: now, on: connection)
                }
                return moved
            }
        }
    }

    package func approvedReturnsAwaitingRefund(limit: Int) async throws(KeyCatError) -> [ApprovedReturn] {
        try await storage {
            try await database.read {
                try $0.query("""
                    SELECT r.id, r.restock,
                           o.status NOT IN ('paid', 'shipped', 'delivered', 'partially_refunded')
                             OR NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = r.shipment_id AND l.refunded_at IS NULL),
                           EXISTS (SELECT 1 FROM refunds f WHERE f.order_id = r.order_id AND f.status = 'pending')
                    FROM return_requests r JOIN orders o ON o.id = r.order_id
                    WHERE r.status = 'approved' AND r.refunded_at IS NULL
                    ORDER BY r.refund_tried_at NULLS FIRST, r.id LIMIT ?
                    """, [.int(limit)]) {
                    ApprovedReturn(id: ReturnRequestID($0.int64(0)), restock: $0.bool(1), refunded: $0.bool(2), refundPending: $0.bool(3))
                }
            }
        }
    }

    package func markReturnRefundTried(_ id: ReturnRequestID, at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write {
                try $0.run("UPDATE return_requests SET refund_tried_at = ? WHERE id = ?", [StoredTime.value(now), .integer(id.rawValue)])
            }
        }
    }

    package func markReturnRefunded(_ id: ReturnRequestID, at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write {
                try $0.run("UPDATE return_requests SET refunded_at = ? WHERE id = ? AND status = 'approved' AND refunded_at IS NULL",
                           [StoredTime.value(now), .integer(id.rawValue)])
            }
        }
    }

    package func returnRequests(seller: UserID?, status: ReturnRequest.Status?, before: ReturnRequestID?,
                                limit: Int) async throws(KeyCatError) -> [ReturnRequest] {
        var conditions = ["id < ?"]
        var arguments: [SQLValue] = [.integer(before?.rawValue ?? Int64.max)]
        if let seller { conditions.append("seller_id = ?"); arguments.append(.integer(seller.rawValue)) }
        if let status { conditions.append("status = ?"); arguments.append(.text(status.rawValue)) }
        return try await storage {
            try await database.read {
                try $0.query("""
                    SELECT \(Self.returnColumns) FROM return_requests WHERE \(conditions.joined(separator: " AND "))
                    ORDER BY id DESC LIMIT ?
                    """, arguments + [.int(limit)], Self.decodeReturn)
            }
        }
    }

    package func returnRequests(of order: OrderID) async throws(KeyCatError) -> [ReturnRequest] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(Self.returnColumns) FROM return_requests WHERE order_id = ? ORDER BY id",
                             [.integer(order.rawValue)], Self.decodeReturn)
            }
        }
    }
}
