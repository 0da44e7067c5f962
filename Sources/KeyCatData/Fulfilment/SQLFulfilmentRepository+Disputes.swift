import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Disputes of a seller's rejection, or of a request its seller left undecided
/// (``OrderService/disputeReturn(_:reason:by:)``), and the ruling on them: each a conditional
/// move of the request (``moveReturn(_:set:_:where:_:audit:at:)``).
extension SQLFulfilmentRepository {
    /// The condition (on `r`, a return request, and `s`, its parcel) of a seller's rejection its
    /// buyer may still dispute (``ReturnRequest/isDisputable``): not disputed yet, and made, or
    /// its parcel delivered, after `rejectedSince` (a rejection of a parcel still on its way
    /// waits for the goods: the window runs from the later of the two). When the shop tracks
    /// parcels, the delivery is its carrier's, or when KeyCat learnt of it if that was later
    /// (``Shipment/carrierNoticedAt``: the run that heard it stamped `carrier_checked_at`, and a
    /// delivered parcel is never asked about again), and a parcel no carrier has delivered stays
    /// disputable until it shipped before ``TrackingCutoffs/untrackedShippedBefore``.
    static func disputableRejection(rejectedSince: Date, tracking: TrackingCutoffs?) -> (sql: String, arguments: [SQLValue]) {
        let rejected = "r.status = 'rejected' AND r.disputed_at IS NULL AND r.rejected_by_seller = 1"
        guard let tracking else {
            return ("\(rejected) AND (r.decided_at > ? OR s.delivered_at IS NULL OR s.delivered_at > ?)",
                    [StoredTime.value(rejectedSince), StoredTime.value(rejectedSince)])
        }
        return ("""
            \(rejected) AND (r.decided_at > ? OR s.carrier_delivered_at > ? OR s.carrier_delivered_at IS NOT NULL AND s.carrier_checked_at > ?
                             OR s.carrier_delivered_at IS NULL AND COALESCE(s.shipped_at, s.delivered_at) > ?)
            """, [StoredTime.value(rejectedSince), StoredTime.value(rejectedSince), StoredTime.value(rejectedSince),
                  StoredTime.value(tracking.untrackedShippedBefore)])
    }

    package func disputeReturn(_ id: ReturnRequestID, dispute: String, rejectedSince: Date, tracking: TrackingCutoffs?, audit: AuditEntry,
                               at now: Date) async throws(KeyCatError) -> ReturnRequest? {
        let disputable = Self.disputableRejection(rejectedSince: rejectedSince, tracking: tracking)
        return try await moveReturn(id, set: "status = 'disputed', dispute = ?, disputed_at = ?", [.text(dispute), StoredTime.value(now)], where: """
            EXISTS (SELECT 1 FROM return_requests r JOIN shipments s ON s.id = r.shipment_id JOIN orders o ON o.id = r.order_id
                    WHERE r.id = return_requests.id
                      AND ((\(disputable.sql)) OR r.status = 'requested' AND r.created_at <= ?)
                      AND s.confirmed_at IS NULL
                      AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))
            """, disputable.arguments + [StoredTime.value(rejectedSince)], audit: audit, at: now)
    }

    package func ruleOnDispute(_ id: ReturnRequestID, _ status: ReturnRequest.Status, ruling: String?, restock: Bool, audit: AuditEntry,
                               at now: Date) async throws(KeyCatError) -> ReturnRequest? {
        try await moveReturn(id, set: "status = ?, ruling = ?, ruled_by = ?, ruled_at = ?, restock = ?",
                             [.text(status.rawValue), .optional(ruling.map(SQLValue.text)), .text(audit.actor), StoredTime.value(now),
                              .bool(restock)],
                             where: "status = 'disputed'", [], audit: audit, at: now)
    }
}
