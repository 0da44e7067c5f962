import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Writes the settlement ledger (`settlement_entries`) in the transactions that move money: a
/// payment that pays an order, a refund that is done.
enum SettlementLedger {
    /// The statement that writes one `sale` entry per line of `order` and one per shipment's
    /// delivery fee, tied to the payment recorded as `impUID` (which an earlier statement of its
    /// batch may insert): together they add up to the amount paid. One statement: the lines and
    /// the fees together. A line's category is the one it was sold in at checkout (its
    /// listing's, for lines from before migration 38).
    static func saleStatement<Row>(of order: OrderID, paymentImpUID impUID: String, at now: Date) -> SQLStatement<Row> {
        .run("""
            INSERT INTO settlement_entries (kind, seller_id, order_id, shipment_id, line, payment_id, category, amount, occurred_at)
            SELECT 'sale', s.seller_id, l.order_id, l.shipment_id, l.line, pay.id, COALESCE(l.category, p.category), l.unit_price * l.quantity, CAST(?2 AS BIGINT)
            FROM order_lines l JOIN shipments s ON s.id = l.shipment_id JOIN products p ON p.id = l.product_id
                 JOIN payments pay ON pay.imp_uid = ?1
            WHERE l.order_id = ?3 AND l.unit_price * l.quantity > 0
            UNION ALL
            SELECT 'sale', s.seller_id, s.order_id, s.id, NULL, pay.id, NULL, s.delivery_fee, CAST(?2 AS BIGINT)
            FROM shipments s JOIN payments pay ON pay.imp_uid = ?1
            WHERE s.order_id = ?3 AND s.delivery_fee > 0
            """, [.text(impUID), StoredTime.value(now), .integer(order.rawValue)])
    }

    /// `refund`'s `refund` entries: what it gives back, taken from what each line and fee of the
    /// order still holds (sold less refunded). A line refund takes its lines (and its shipment's
    /// fee when it includes it); a part of one shipment's value takes that shipment's lines,
    /// then its fee; a refund of the balance takes the lines in order, then the fees, until its
    /// amount is placed, so a full refund takes everything.
    static func recordRefund(_ refund: Refund, at now: Date, on connection: some SQLConnection) throws {
        var left = refund.amount.won
        for entry in try holdings(of: refund.orderID, on: connection) where left > 0 && entry.amount > 0 {
            if let lineRefund = refund.lineRefund {
                guard entry.shipment == lineRefund.shipmentID.rawValue else { continue }
                // A part of the parcel's value (no line named) takes its lines, then its fee.
                if !lineRefund.lines.isEmpty {
                    if let line = entry.line { guard lineRefund.lines.contains(line) else { continue } }
                    else { guard lineRefund.includesDeliveryFee else { continue } }
                }
            }
            let amount = min(left, entry.amount)
            left -= amount
            try connection.run("""
                INSERT INTO settlement_entries (kind, seller_id, order_id, shipment_id, line, refund_id, category, amount, occurred_at)
                VALUES ('refund', ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(entry.seller), .integer(refund.orderID.rawValue), .integer(entry.shipment),
                      .optional(entry.line.map(SQLValue.int)), .integer(refund.id), .optional(entry.category.map(SQLValue.text)),
                      .integer(amount), StoredTime.value(now)])
        }
    }

    /// Whether the entry `entry` (a `settlement_entries` row, as SQL) is payable: its parcel's
    /// receipt was confirmed (구매확정), or the parcel will never be and holds nothing — cancelled,
    /// its order cancelled or refunded in full, or every line of it refunded with nothing of its
    /// fee left. Until then a sale waits, and so do the refunds of the same parcel, so a
    /// settlement never pays for goods the buyer may still return.
    ///
    /// A parcel that left keeps its fee when its lines are refunded (it travelled), and that fee
    /// waits for the confirmation like any sale. Until 2026-12-01 every line refunded was enough:
    /// a seller could ship an empty box, or a made-up number, refund the lines and be paid the
    /// fee by the next close, before the buyer could say the parcel never came and before any
    /// carrier was asked.
    ///
    /// `closingAt`: for a close, a `?` bound to the period's end. A parcel is then payable only
    /// once none of its unsettled entries is dated at or after the period's end, whether it is
    /// confirmed or will never be: its refund, done after the month (a seller's compensation on
    /// the 1st, then the buyer's confirmation), would otherwise be left to the next close while
    /// this one paid its sale, and the next close would carry a debt the seller may never earn
    /// back. The parcel waits whole, and the close of the month of its refund pays the net.
    static func payable(_ entry: String = "settlement_entries", closingAt cutoff: Bool = false) -> String {
        let nothingLater = cutoff ? """

                  AND NOT EXISTS (SELECT 1 FROM settlement_entries pe WHERE pe.order_id = ps.order_id AND pe.shipment_id = ps.id
                                                                       AND pe.settlement_id IS NULL AND pe.occurred_at >= ?)
            """ : ""
        return """
        EXISTS (SELECT 1 FROM shipments ps JOIN orders po ON po.id = ps.order_id
                WHERE ps.id = \(entry).shipment_id
                  AND (ps.confirmed_at IS NOT NULL OR ps.status = 'cancelled' OR po.status IN ('cancelled', 'refunded')
                       OR NOT EXISTS (SELECT 1 FROM order_lines pl WHERE pl.shipment_id = ps.id AND pl.refunded_at IS NULL)
                          AND (SELECT coalesce(sum(CASE WHEN pf.kind = 'sale' THEN pf.amount ELSE -pf.amount END), 0)
                               FROM settlement_entries pf WHERE pf.order_id = ps.order_id AND pf.shipment_id = ps.id) = 0)\(nothingLater))
        """
    }

    /// The condition (on `line`, an alias of `order_lines`) that less than half of the line's
    /// value was given back by parts of it (the ledger's `refund` entries against it: a seller's
    /// compensation, an operator's refund by amount). A line given back half or more keeps
    /// nothing of the purchase: a review's purchase does not stand on it, nor a sale in search's
    /// ranking.
    static func lessThanHalfRefunded(_ line: String) -> String {
        """
        2 * (SELECT coalesce(sum(e.amount), 0) FROM settlement_entries e
             WHERE e.order_id = \(line).order_id AND e.line = \(line).line AND e.kind = 'refund') < \(line).unit_price * \(line).quantity
        """
    }

    /// What one line of an order (`line` nil: a shipment's delivery fee) still holds of the
    /// buyer's money: its sale entries less its refund entries.
    struct Holding {
        var shipment: Int64
        var seller: Int64
        var line: Int?
        var category: String?
        var amount: Int64
    }

    /// `order`'s holdings, lines first in order, then the fees; empty for an order paid before
    /// the ledger, which has no entries.
    static func holdings(of order: OrderID, on connection: some SQLConnection) throws -> [Holding] {
        try connection.query("""
            SELECT shipment_id, seller_id, line, category, sum(CASE WHEN kind = 'sale' THEN amount ELSE -amount END)
            FROM settlement_entries WHERE order_id = ?
            GROUP BY shipment_id, seller_id, line, category
            ORDER BY CASE WHEN line IS NULL THEN 1 ELSE 0 END, line, shipment_id
            """, [.integer(order.rawValue)]) { row in
            Holding(shipment: row.int64(0), seller: row.int64(1), line: row.isNull(2) ? nil : row.int(2),
                    category: row.optionalString(3), amount: row.int64(4))
        }
    }
}
