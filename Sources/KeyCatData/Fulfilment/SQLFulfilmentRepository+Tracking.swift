import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Carrier tracking over either store: the queue of parcels to ask about, and what their
/// carriers said (``OrderService/trackParcels(with:interval:limit:by:)``).
extension SQLFulfilmentRepository {
    package func claimParcelsToTrack(_ due: TrackingDue, limit: Int, at now: Date) async throws(KeyCatError) -> [Shipment] {
        try await storage {
            try await database.write { connection in
                // Claimed by marking them asked now, in the statement that picks them: a server
                // sharing the database picks others (on Postgres the serializable write makes a
                // second claim of the same rows fail and retry, as any conflicting write does).
                // One statement returns the claimed rows whole; RETURNING keeps no order, so
                // they are sorted here.
                try connection.query("""
                    UPDATE shipments SET carrier_checked_at = ?
                    WHERE id IN (SELECT t.id FROM shipments t
                                 WHERE t.status IN ('shipped', 'delivered') AND t.confirmed_at IS NULL AND t.carrier_delivered_at IS NULL
                                   AND t.carrier_checked_at <= ?
                                   AND (COALESCE(t.shipped_at, 0) >= ? OR t.carrier_checked_at <= ?)
                                   AND t.carrier IS NOT NULL AND t.tracking_number IS NOT NULL
                                   AND EXISTS (SELECT 1 FROM orders o WHERE o.id = t.order_id
                                               AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))
                                 ORDER BY t.carrier_checked_at, t.id LIMIT ?)
                    RETURNING \(ShipmentRow.columns(of: ""))
                    """, [StoredTime.value(now), StoredTime.value(due.checkedBefore), StoredTime.value(due.slowShippedBefore),
                          StoredTime.value(due.slowCheckedBefore), .int(limit)], ShipmentRow.decode)
                    .sorted { $0.id.rawValue < $1.id.rawValue }
            }
        }
    }

    package func recordTracking(of shipment: ShipmentID, status: CarrierStatus, carrierDeliveredAt: Date?, audit: AuditEntry?,
                                claimedAt: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                // A delivery the carrier already reported stays as it was: a later answer never
                // moves it, nor clears it, and is not audited again. An answer about a number
                // corrected since it was claimed (the correction resets the claim) is dropped.
                let changed = try connection.run("""
                    UPDATE shipments SET carrier_status = ?, carrier_delivered_at = ?
                    WHERE id = ? AND carrier_delivered_at IS NULL AND carrier_checked_at = ?
                    """, [.text(status.rawValue), .optional(carrierDeliveredAt.map(StoredTime.value)), .integer(shipment.rawValue),
                          StoredTime.value(claimedAt)])
                guard changed == 1 else { return false }
                if let audit { try AuditLogTable.insert(audit, on: connection) }
                return true
            }
        }
    }

    package func correctTracking(of shipment: ShipmentID, carrier: Carrier, trackingNumber: String, use: NumberUse,
                                 audit: AuditEntry, at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let condition = "id = ? AND status IN ('shipped', 'delivered') AND confirmed_at IS NULL AND carrier_delivered_at IS NULL"
                // The new number is checked once, with the read: the write is serializable on
                // Postgres and alone on SQLite, so no other parcel takes it before the update.
                guard let old = try connection.queryOne(
                    "SELECT order_id, carrier, tracking_number FROM shipments WHERE \(condition) AND NOT \(Self.numberTaken(besides: "shipments", use))",
                    [.integer(shipment.rawValue)] + Self.numberTakenArguments(carrier, trackingNumber, use),
                    { (order: $0.int64(0), carrier: $0.optionalString(1), number: $0.optionalString(2)) }) else { return false }
                // The same condition again: the parcel may have moved since it was read.
                guard try connection.run("""
                    UPDATE shipments SET carrier = ?, tracking_number = ?, carrier_status = NULL, carrier_checked_at = 0,
                                         tracking_corrected_at = ?, updated_at = ?
                    WHERE \(condition)
                    """, [.text(carrier.code), .text(trackingNumber), StoredTime.value(now), StoredTime.value(now),
                          .integer(shipment.rawValue)]) == 1 else { return false }
                // The order's own carrier and number are its last shipped parcel's, for clients
                // that read only them: corrected when they are this parcel's.
                if let oldCarrier = old.carrier, let oldNumber = old.number {
                    try connection.run("UPDATE orders SET carrier = ?, tracking_number = ? WHERE id = ? AND carrier = ? AND tracking_number = ?",
                                       [.text(carrier.code), .text(trackingNumber), .integer(old.order), .text(oldCarrier), .text(oldNumber)])
                }
                try AuditLogTable.insert(audit, on: connection)
                let event = DomainEvent(.shipmentTrackingCorrected, at: now, aggregate: EventAggregate(.shipment, shipment.rawValue), data: [:])
                try connection.batch([EventOutbox.statement(event, reading: .shipment, row: shipment.rawValue, on: connection)])
                return true
            }
        }
    }

    package func numberIsTaken(_ carrier: Carrier, _ trackingNumber: String, besides shipment: ShipmentID,
                               _ use: NumberUse) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read { connection in
                try connection.queryOne("SELECT 1 FROM shipments mine WHERE mine.id = ? AND \(Self.numberTaken(besides: "mine", use))",
                                        [.integer(shipment.rawValue)] + Self.numberTakenArguments(carrier, trackingNumber, use),
                                        { $0.int64(0) }) != nil
            }
        }
    }

    /// The condition that the number of ``numberTakenArguments(_:_:_:)`` is taken from the parcel
    /// `mine` names (a table or alias of the statement): another parcel was given it since
    /// `use.heldSince` (shipped with it, or corrected to it since), of an order not refunded or
    /// cancelled, and is not bound for the same place from the same seller — nor, on an
    /// operator's move of a whole order, of the same order
    /// (``FulfilmentRepository/numberIsTaken(_:_:besides:_:)``). An order without an address
    /// matches only another without one. Found by `shipments_by_tracking`.
    static func numberTaken(besides mine: String, _ use: NumberUse) -> String {
        """
        EXISTS (SELECT 1 FROM shipments other
                JOIN orders other_order ON other_order.id = other.order_id
                JOIN orders my_order ON my_order.id = \(mine).order_id
                LEFT JOIN order_addresses other_to ON other_to.order_id = other.order_id
                LEFT JOIN order_addresses my_to ON my_to.order_id = \(mine).order_id
                WHERE other.tracking_number = ? AND other.carrier = ? AND COALESCE(other.tracking_corrected_at, other.shipped_at) >= ?
                  AND other.id <> \(mine).id\(use.sharedWithOrder ? " AND other.order_id <> \(mine).order_id" : "")
                  AND other_order.status NOT IN ('refunded', 'cancelled')
                  AND NOT (other.seller_id = \(mine).seller_id AND other_order.buyer_id = my_order.buyer_id
                           AND coalesce(other_to.postcode, '') = coalesce(my_to.postcode, '')
                           AND coalesce(other_to.road_address, '') = coalesce(my_to.road_address, '')
                           AND coalesce(other_to.detail, '') = coalesce(my_to.detail, '')))
        """
    }

    static func numberTakenArguments(_ carrier: Carrier, _ number: String, _ use: NumberUse) -> [SQLValue] {
        [.text(number), .text(carrier.code), StoredTime.value(use.heldSince)]
    }
}
