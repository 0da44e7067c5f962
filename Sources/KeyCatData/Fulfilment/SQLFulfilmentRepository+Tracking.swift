import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Carrier tracking over either store: the queue of parcels to ask about, and what their
/// carriers said (``OrderService/trackParcels(with:interval:limit:by:)``).
extension SQLFulfilmentRepository {
    package func parcelsToTrack(checkedBefore: Date, limit: Int) async throws(KeyCatError) -> [Shipment] {
        try await storage {
            try await database.read { connection in
                try connection.query("""
                    SELECT \(ShipmentRow.columns) FROM shipments s
                    WHERE s.status IN ('shipped', 'delivered') AND s.confirmed_at IS NULL AND s.carrier_delivered_at IS NULL
                      AND s.carrier_checked_at <= ? AND s.carrier IS NOT NULL AND s.tracking_number IS NOT NULL
                      AND EXISTS (SELECT 1 FROM orders o WHERE o.id = s.order_id
                                  AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))
                    ORDER BY s.carrier_checked_at, s.id LIMIT ?
                    """, [StoredTime.value(checkedBefore), .int(limit)], ShipmentRow.decode)
            }
        }
    }

    package func recordTracking(of shipment: ShipmentID, status: CarrierStatus?, carrierDeliveredAt: Date?, audit: AuditEntry?,
                                at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                // A delivery the carrier already reported stays as it was: a later answer never
                // moves it, nor clears it, and is not audited again.
                let changed = try connection.run("""
                    UPDATE shipments SET carrier_checked_at = ?, carrier_status = COALESCE(?, carrier_status),
                                         carrier_delivered_at = ?
                    WHERE id = ? AND carrier_delivered_at IS NULL
                    """, [StoredTime.value(now), .optional(status.map { .text($0.rawValue) }),
                          .optional(carrierDeliveredAt.map(StoredTime.value)), .integer(shipment.rawValue)])
                if changed == 1, let audit { try AuditLogTable.insert(audit, on: connection) }
            }
        }
    }
}
