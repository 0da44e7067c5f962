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
                let claimed = try connection.query("""
                    UPDATE shipments SET carrier_checked_at = ?
                    WHERE id IN (SELECT s.id FROM shipments s
                                 WHERE s.status IN ('shipped', 'delivered') AND s.confirmed_at IS NULL AND s.carrier_delivered_at IS NULL
                                   AND s.carrier_checked_at <= ?
                                   AND (COALESCE(s.shipped_at, 0) >= ? OR s.carrier_checked_at <= ?)
                                   AND s.carrier IS NOT NULL AND s.tracking_number IS NOT NULL
                                   AND EXISTS (SELECT 1 FROM orders o WHERE o.id = s.order_id
                                               AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))
                                 ORDER BY s.carrier_checked_at, s.id LIMIT ?)
                    RETURNING id
                    """, [StoredTime.value(now), StoredTime.value(due.checkedBefore), StoredTime.value(due.slowShippedBefore),
                          StoredTime.value(due.slowCheckedBefore), .int(limit)]) { $0.int64(0) }
                guard !claimed.isEmpty else { return [] }
                let ids = claimed.map { SQLValue.integer($0) }
                return try connection.query("""
                    SELECT \(ShipmentRow.columns) FROM shipments s WHERE s.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                    ORDER BY s.id
                    """, ids, ShipmentRow.decode)
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

    package func correctTracking(of shipment: ShipmentID, carrier: Carrier, trackingNumber: String, audit: AuditEntry,
                                 at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let condition = "id = ? AND status IN ('shipped', 'delivered') AND confirmed_at IS NULL AND carrier_delivered_at IS NULL"
                guard let old = try connection.queryOne(
                    "SELECT order_id, carrier, tracking_number FROM shipments WHERE \(condition)", [.integer(shipment.rawValue)],
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
}
