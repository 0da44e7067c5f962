import Foundation
import KeyCatDomain
import KeyCatInfrastructure

extension SQLOrderRepository {
    @discardableResult
    package func recordVoiding(_ payment: OrderPayment) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                var voiding = payment
                voiding.status = .voiding
                // The same imp_uid may already be recorded (paid for this order): leave it be.
                if let status = try connection.queryOne("SELECT status FROM payments WHERE imp_uid = ?", [.text(payment.impUID)],
                                                        { $0.string(0) }) {
                    return status == OrderPayment.Status.voiding.rawValue || status == OrderPayment.Status.voided.rawValue
                }
                try Self.insert(voiding, at: payment.createdAt, on: connection)
                return true
            }
        }
    }

    package func markVoided(impUID: String, audit: AuditEntry?) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                let changed = try connection.run(
                    "UPDATE payments SET status = 'voided', updated_at = ? WHERE imp_uid = ? AND status = 'voiding'",
                    [StoredTime.value(audit?.at ?? Date()), .text(impUID)])
                if changed == 1, let audit { try AuditLogTable.insert(audit, on: connection) }
            }
        }
    }

    package func paymentsToVoid(limit: Int) async throws(KeyCatError) -> [OrderPayment] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(OrderRow.paymentColumns) FROM payments WHERE status = 'voiding' ORDER BY id LIMIT ?",
                             [.int(limit)], OrderRow.decodePayment)
            }
        }
    }

    package func payments(of buyerID: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [OrderPayment] {
        try await storage {
            try await database.read {
                try $0.query("""
                    SELECT \(OrderRow.prefixedPaymentColumns)
                    FROM payments p JOIN orders o ON o.id = p.order_id
                    WHERE o.buyer_id = ? AND p.id < ? ORDER BY p.id DESC LIMIT ?
                    """, [.integer(buyerID.rawValue), .integer(position?.id ?? Int64.max), .int(limit)], OrderRow.decodePayment)
            }
        }
    }

    package func payments(of orderID: OrderID) async throws(KeyCatError) -> [OrderPayment] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(OrderRow.paymentColumns) FROM payments WHERE order_id = ? ORDER BY id",
                             [.integer(orderID.rawValue)], OrderRow.decodePayment)
            }
        }
    }

    package func beginRefund(orderID: OrderID, expectedStatus: OrderStatus, amount: Money?, reason: String, restock: Bool,
                             target: (_ isFull: Bool) -> OrderStatus, requestKey: String?, requestFingerprint: String?,
                             requestedBy: String, at now: Date) async throws(KeyCatError) -> Refund {
        try await storage {
            try await database.write { connection in
                let order = try OrderRow.find(orderID, stillIn: expectedStatus, on: connection)
                guard try !OrderRow.hasPendingRefund(orderID, on: connection) else {
                    throw KeyCatError(.requestInProgress, "another refund of order \(orderID) is in progress; retry later")
                }
                let balance = order.refundableAmount
                let refundAmount = amount ?? balance
                guard refundAmount <= balance, refundAmount > .zero else {
                    throw KeyCatError(.cancelAmountExceedsCancellable,
                                      "\(refundAmount) is more than the refundable \(balance)",
                                      context: ["refundable": "\(balance.won)", "requested": "\(refundAmount.won)"])
                }
                let next = target(refundAmount == balance)
                try order.status.checkMove(to: next)
                if next == .cancelled, let left = order.shipments.first(where: \.hasLeft) {
                    throw KeyCatError.parcelLeft(left)
                }
                let id = try connection.insertReturningID("""
                    INSERT INTO refunds (order_id, amount, checksum, reason, restock, target, status, created_at, updated_at,
                                         request_key, request_fingerprint, requested_by)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)
                    """, [.integer(orderID.rawValue), .integer(refundAmount.won), .integer(balance.won), .text(reason),
                          .bool(restock), .text(next.rawValue), StoredTime.value(now), StoredTime.value(now),
                          .optional(requestKey.map(SQLValue.text)), .optional(requestFingerprint.map(SQLValue.text)),
                          .text(requestedBy)])
                return Refund(id: id, orderID: orderID, amount: refundAmount, checksum: balance,
                              reason: reason, restock: restock, target: next, status: .pending, createdAt: now,
                              requestKey: requestKey, requestFingerprint: requestFingerprint, requestedBy: requestedBy)
            }
        }
    }

    /// A review stands on a delivered line its author bought and kept: one in a delivered
    /// shipment, not refunded on its own, of an order that still holds its payment. After a
    /// refund, each review by the order's buyer of its products that no line supports any more
    /// is removed and leaves the product's rating in the same transaction, with an audit entry
    /// (`review.remove`, the rating kept in its detail). ``SQLPurchaseHistory`` asks the same.
    static func removeUnsupportedReviews(of orderID: OrderID, audit: AuditEntry?, at now: Date, on connection: some SQLConnection) throws {
        let removed = try connection.query("""
            DELETE FROM reviews
            WHERE author_id = (SELECT buyer_id FROM orders WHERE id = ?)
              AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)
              AND NOT EXISTS (\(SQLPurchaseHistory<Database>.supportingLine(buyer: "reviews.author_id", product: "reviews.product_id",
                                                                          confirmed: false)))
            RETURNING id, product_id, rating
            """, [.integer(orderID.rawValue), .integer(orderID.rawValue)]) {
            (id: $0.int64(0), product: ProductID($0.int64(1)), rating: $0.int(2))
        }
        for review in removed {
            try EventOutbox.append(SQLReviewRepository<Database>.removedEvent(
                review.id, product: review.product, rating: review.rating, cause: "refunded", at: now), on: connection)
            try SQLReviewRepository<Database>.adjustRating(of: review.product, count: -1, sum: -review.rating, on: connection)
            try AuditLogTable.insert(AuditEntry(
                actor: audit?.actor ?? "system:refunds", action: "review.remove", target: "review:\(review.id)",
                detail: "order \(orderID) was refunded; rating \(review.rating)", at: now), on: connection)
        }
    }

    package func completeRefund(_ refund: Refund, audit: AuditEntry?, at now: Date) async throws(KeyCatError) -> Order {
        try await storage {
            try await database.write { connection in
                let changed = try connection.run(
                    "UPDATE refunds SET status = 'done', updated_at = ? WHERE id = ? AND status = 'pending'",
                    [StoredTime.value(now), .integer(refund.id)])
                if changed == 1 {
                    // The money moved at the PG, so the refunded amount always grows; the status
                    // moves only from a status that holds a payment. A cancel whose order
                    // shipped meanwhile ends as a plain full refund.
                    let status = try connection.queryOne("""
                        UPDATE orders SET refunded_amount = refunded_amount + ?, updated_at = ?,
                            status = CASE
                                WHEN status NOT IN ('paid', 'shipped', 'delivered', 'partially_refunded') THEN status
                                WHEN CAST(? AS TEXT) = 'cancelled' AND status <> 'paid' THEN 'refunded'
                                ELSE ? END
                        WHERE id = ?
                        RETURNING status
                        """, [.integer(refund.amount.won), StoredTime.value(now), .text(refund.target.rawValue),
                              .text(refund.target.rawValue), .integer(refund.orderID.rawValue)]) { $0.string(0) }
                    // Units come back when they never left — the lines of a cancel that stayed a
                    // cancel, and of a refund in full, whose parcels not yet sent it cancels — and
                    // all of them when the operator's refund in full asked to restock (the goods
                    // came back). The units of a parcel that left are with the carrier or the buyer.
                    let cancelled = status == OrderStatus.cancelled.rawValue
                    let refundedInFull = refund.lineRefund == nil && status == OrderStatus.refunded.rawValue
                    let everything = refundedInFull && refund.restock && refund.target == .refunded
                    try SettlementLedger.recordRefund(refund, at: now, on: connection)
                    if let lineRefund = refund.lineRefund {
                        try SQLFulfilmentRepository<Database>.completeLines(of: refund, lineRefund, at: now, on: connection)
                    }
                    if status == OrderStatus.cancelled.rawValue || status == OrderStatus.refunded.rawValue {
                        try Self.cancelPendingShipments(of: refund.orderID, at: now, on: connection)
                    }
                    try Self.removeUnsupportedReviews(of: refund.orderID, audit: audit, at: now, on: connection)
                    var returned = 0
                    if cancelled || everything {
                        returned = try OrderRow.returnStock(of: refund.orderID, as: cancelled ? .orderReturned : .refundRestock,
                                                            keepingWhatLeft: cancelled, at: now, on: connection)
                    } else if refundedInFull {
                        // Line by line: the order's own mark says all its units came back.
                        returned = try OrderRow.returnLines(of: refund.orderID, where: OrderRow.unsent, [], as: .orderReturned,
                                                            at: now, on: connection)
                    } else if let lineRefund = refund.lineRefund, status == OrderStatus.refunded.rawValue {
                        // A parcel's refund that took the last of the balance (an operator's
                        // refund by amount had taken the rest): the order's other parcels not
                        // sent were cancelled with it, and their units come back. Its own lines
                        // were restocked as it asked.
                        returned = try OrderRow.returnLines(
                            of: refund.orderID,
                            where: OrderRow.unsent + " AND NOT (order_lines.shipment_id = ? AND order_lines.line IN (\(connection.dialect.integersFromJSON)))",
                            [.integer(lineRefund.shipmentID.rawValue), .text("[" + lineRefund.lines.map(String.init).joined(separator: ",") + "]")],
                            as: .orderReturned, at: now, on: connection)
                    }
                    // What the refund took back no longer counts as sold in search's ranking.
                    try connection.batch([SearchIndex.recountSales(of: refund.orderID, dialect: connection.dialect)])
                    if let audit { try AuditLogTable.insert(audit, on: connection) }
                    // A line refund restocks as it asked (``SQLFulfilmentRepository/completeLines``).
                    let restocked = refund.lineRefund == nil ? cancelled || everything || returned > 0 : refund.restock
                    try Self.appendRefundEvents(refund, status: status, restocked: restocked, at: now, on: connection)
                }
                guard let order = try OrderRow.find(refund.orderID, on: connection) else {
                    throw KeyCatError.notFound("order", refund.orderID)
                }
                return order
            }
        }
    }

    /// `order.refunded` for a refund the PG made, and `order.cancelled` too when it cancelled the
    /// order (a paid order's cancel), their figures read from the order as the refund left it.
    private static func appendRefundEvents(_ refund: Refund, status: String?, restocked: Bool, at now: Date,
                                           on connection: Database.Connection) throws {
        let aggregate = EventAggregate(.order, refund.orderID.rawValue)
        let full = status == OrderStatus.cancelled.rawValue || status == OrderStatus.refunded.rawValue
        var events = [DomainEvent(.orderRefunded, at: now, aggregate: aggregate, data: [
            "refund_id": .integer(refund.id), "refund_amount": .won(refund.amount), "reason": .string(refund.reason),
            "full": .boolean(full), "restocked": .boolean(restocked),
            "shipment_id": refund.lineRefund.map { .integer($0.shipmentID.rawValue) } ?? .null,
            "lines": .list((refund.lineRefund?.lines ?? []).map { .integer(Int64($0)) }),
        ])]
        if status == OrderStatus.cancelled.rawValue {
            events.append(DomainEvent(.orderCancelled, at: now, aggregate: aggregate, data: [
                "cause": "refunded", "paid": true, "reason": .string(refund.reason),
            ]))
        }
        try connection.batch(events.map {
            EventOutbox.statement($0, reading: .order, row: refund.orderID.rawValue, on: connection)
        })
    }

    package func failRefund(_ refund: Refund, audit: AuditEntry, at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                let failed = try connection.run("UPDATE refunds SET status = 'failed', updated_at = ? WHERE id = ? AND status = 'pending'",
                                                [StoredTime.value(now), .integer(refund.id)])
                if failed == 1 { try AuditLogTable.insert(audit, on: connection) }
            }
        }
    }

    package func pendingRefunds(begunBy: Date, limit: Int) async throws(KeyCatError) -> [Refund] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(OrderRow.refundColumns) FROM refunds WHERE status = 'pending' AND created_at <= ? ORDER BY id LIMIT ?",
                             [StoredTime.value(begunBy), .int(limit)], OrderRow.decodeRefund)
            }
        }
    }

    package func refund(of orderID: OrderID, requestKey: String) async throws(KeyCatError) -> Refund? {
        try await storage {
            try await database.read {
                try $0.queryOne("""
                    SELECT \(OrderRow.refundColumns) FROM refunds
                    WHERE order_id = ? AND request_key = ? AND status <> 'failed'
                    """, [.integer(orderID.rawValue), .text(requestKey)], OrderRow.decodeRefund)
            }
        }
    }

    package func refunds(of orderID: OrderID) async throws(KeyCatError) -> [Refund] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(OrderRow.refundColumns) FROM refunds WHERE order_id = ? ORDER BY id",
                             [.integer(orderID.rawValue)], OrderRow.decodeRefund)
            }
        }
    }
}
