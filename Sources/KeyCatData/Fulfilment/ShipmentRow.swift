import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How shipments map to their rows.
enum ShipmentRow {
    static let columns = columns(of: "s.")

    /// The columns ``decode(_:)`` reads, each name after `table` (`s.`, or nothing where a
    /// name may not be qualified, as in SQLite's `RETURNING`).
    static func columns(of table: String) -> String {
        """
        \(table)id, \(table)order_id, \(table)seller_id, \(table)status, \(table)delivery_fee, \(table)carrier, \(table)tracking_number,
        \(table)shipped_at, \(table)delivered_at, \(table)confirmed_at, \(table)carrier_status, \(table)carrier_delivered_at,
        \(table)tracking_corrected_at, CASE WHEN \(table)carrier_delivered_at IS NOT NULL THEN \(table)carrier_checked_at END
        """
    }

    /// Decodes a shipment row; which lines it carries is read with the order's lines.
    static func decode(_ row: some SQLRow) throws -> Shipment {
        guard let status = ShipmentStatus(rawValue: row.string(3)) else {
            throw KeyCatError(.internalError, "shipment \(row.int64(0)) has an unknown status \(row.string(3))")
        }
        return Shipment(
            id: ShipmentID(row.int64(0)), orderID: OrderID(row.int64(1)), sellerID: UserID(row.int64(2)), status: status,
            deliveryFee: Money(won: row.int64(4)), carrier: row.optionalString(5), trackingNumber: row.optionalString(6),
            lines: [], shippedAt: StoredTime.date(row.optionalInt64(7)), deliveredAt: StoredTime.date(row.optionalInt64(8)),
            confirmedAt: StoredTime.date(row.optionalInt64(9)), carrierStatus: row.optionalString(10).flatMap(CarrierStatus.init(rawValue:)),
            carrierDeliveredAt: StoredTime.date(row.optionalInt64(11)), trackingCorrectedAt: StoredTime.date(row.optionalInt64(12)),
            carrierNoticedAt: StoredTime.date(row.optionalInt64(13)))
    }

    /// The shipments matching `condition` (on `s`), by order, without their lines.
    static func shipments(where condition: String, _ arguments: [SQLValue], on connection: some SQLConnection) throws -> [OrderID: [Shipment]] {
        var byOrder: [OrderID: [Shipment]] = [:]
        for shipment in try connection.query(
            "SELECT \(columns) FROM shipments s WHERE \(condition) ORDER BY s.order_id, s.id", arguments, decode) {
            byOrder[shipment.orderID, default: []].append(shipment)
        }
        return byOrder
    }
}
