import Foundation
import KeyCatInfrastructure

/// The orders' invariants that `db check` proves on any database (each query returns the rows
/// that break one; none means it holds):
///
/// - no product has negative stock;
/// - no order is charged twice (two `paid` payments for one order);
/// - every order that was paid has its paid payment, of the order's amount (one cancelled with
///   a full refund too), and no order that was never paid holds one;
/// - refunds never exceed what was paid, and the order's refunded amount is the sum of its done
///   refunds;
/// - stock accounting: an order's units are out of stock exactly while it is not returned, so an
///   expired, cancelled or failed order must have returned them, and only those (and refunded
///   ones, restocked) may have; and a paid order's lines all took their units (a line sold on
///   payment takes them with the payment).
///
/// Stock conservation is proven with the inventory ledger, which keeps every movement from the
/// initial stock on (``LedgerInvariants``); the payment simulation checks it against its own
/// initial stock too.
enum OrderInvariants {
    static let checks: [(String, String)] = [
        ("product %@ has negative stock", "SELECT id FROM products WHERE stock < 0"),
        ("order %@ is charged twice (more than one paid payment)",
         "SELECT order_id FROM payments WHERE status = 'paid' GROUP BY order_id HAVING count(*) > 1"),
        ("order %@ was paid but has no paid payment of its amount", """
            SELECT o.id FROM orders o
            WHERE o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded', 'refunded')
              AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status = 'paid' AND p.amount = o.amount)
            """),
        ("order %@ has a paid payment but is not paid", """
            SELECT DISTINCT o.id FROM orders o JOIN payments p ON p.order_id = o.id AND p.status = 'paid'
            WHERE o.status IN ('awaiting_payment', 'expired', 'failed')
               OR o.status = 'cancelled' AND (o.imp_uid IS NULL OR o.imp_uid <> p.imp_uid)
            """),
        // A paid order cancelled with a full refund keeps its payment `paid` (the refund records
        // the money going back); one cancelled before it was paid has none.
        ("order %@ was paid and cancelled but has no paid payment of its amount", """
            SELECT o.id FROM orders o
            WHERE o.status = 'cancelled' AND o.imp_uid IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.imp_uid = o.imp_uid AND p.status = 'paid'
                                                         AND p.amount = o.amount)
            """),
        ("order %@ has refunds above its paid amount", """
            SELECT o.id FROM orders o JOIN refunds r ON r.order_id = o.id AND r.status IN ('done', 'pending')
            GROUP BY o.id HAVING sum(r.amount) > max(o.amount)
            """),
        ("order %@ records a refunded amount other than the sum of its refunds", """
            SELECT o.id FROM orders o
            WHERE o.refunded_amount <> (SELECT coalesce(sum(amount), 0) FROM refunds r WHERE r.order_id = o.id AND r.status = 'done')
            """),
        ("order %@ closed without a sale but kept its stock",
         "SELECT id FROM orders WHERE status IN ('expired', 'cancelled', 'failed') AND stock_returned = 0"),
        ("order %@ was paid but a line sold on payment never took its units", """
            SELECT DISTINCT l.order_id FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.stock_taken = 0 AND o.status NOT IN ('awaiting_payment', 'expired', 'cancelled', 'failed')
            """),
        ("order %@ returned its stock but still counts as sold",
         "SELECT id FROM orders WHERE stock_returned = 1 AND status NOT IN ('expired', 'cancelled', 'failed', 'refunded')"),
    ]

    /// The broken invariants, one sentence each; nothing on a database without the orders tables.
    static func problems(on connection: some SQLConnection) throws -> [String] {
        guard try connection.hasTable("orders") else { return [] }
        var problems: [String] = []
        for (sentence, sql) in checks {
            for id in try connection.query(sql, [], { $0.int64(0) }) {
                problems.append(sentence.replacingOccurrences(of: "%@", with: String(id)))
            }
        }
        return problems
    }
}
