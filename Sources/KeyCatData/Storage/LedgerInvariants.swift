import KeyCatInfrastructure

/// What `db check` proves with the inventory ledger (``InventoryLedgerSchema``) and the orders'
/// own arithmetic, so that stock added by hand, a changed price or total, or a paid order's lines
/// deleted are found:
///
/// - a product's `stock` is the sum of its ledger movements;
/// - an order has at least one line, `items_total` = Σ unit_price × quantity of its lines,
///   `delivery_total` = Σ its shipments' delivery fees, and `amount` = items_total + delivery_total (and a paid
///   amount is tied to the PG's payment by ``OrderInvariants``);
/// - for each (order, product), the units the ledger took equal the units on the order's lines
///   that took their stock (a line sold on payment takes it when paid), and the units it gave
///   back equal those of the lines marked returned (all that were taken once the order returned
///   its stock; a line refunded with restock on its own before that).
///
/// Not provable: a line's `unit_price` against the listing's price, which may have changed since
/// (the price at checkout is kept only on the line). A price multiplied on a line still breaks
/// the order's totals, and changing the totals too breaks the paid amount the PG recorded.
enum LedgerInvariants {
    static func problems(on connection: some SQLConnection) throws -> [String] {
        guard try connection.hasTable("stock_movements") else { return [] }
        return try stockProblems(on: connection) + totalProblems(on: connection) + lineProblems(on: connection)
    }

    private static func stockProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query("""
            SELECT p.id, p.stock, coalesce(m.total, 0)
            FROM products p LEFT JOIN (SELECT product_id, sum(change) AS total FROM stock_movements GROUP BY product_id) m
                ON m.product_id = p.id
            WHERE p.stock <> coalesce(m.total, 0)
            ORDER BY p.id
            """, []
        ) { row in "product \(row.int64(0)): stock is \(row.int64(1)) but its inventory ledger adds up to \(row.int64(2))" }
    }

    private static func totalProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query("""
            WITH fees AS (SELECT order_id, sum(delivery_fee) AS total FROM shipments GROUP BY order_id)
            SELECT o.id, o.items_total, o.delivery_total, o.amount, count(l.line),
                   coalesce(sum(l.unit_price * l.quantity), 0), coalesce(max(f.total), 0)
            FROM orders o LEFT JOIN order_lines l ON l.order_id = o.id LEFT JOIN fees f ON f.order_id = o.id
            GROUP BY o.id, o.items_total, o.delivery_total, o.amount
            HAVING count(l.line) = 0 OR o.items_total <> coalesce(sum(l.unit_price * l.quantity), 0)
                OR o.delivery_total <> coalesce(max(f.total), 0) OR o.amount <> o.items_total + o.delivery_total
            ORDER BY o.id
            """, []
        ) { row in
            var parts: [String] = []
            if row.int64(4) == 0 { parts.append("has no lines") }
            if row.int64(1) != row.int64(5) { parts.append("items_total is \(row.int64(1)) but its lines add up to \(row.int64(5))") }
            if row.int64(2) != row.int64(6) { parts.append("delivery_total is \(row.int64(2)) but its shipments' delivery fees add up to \(row.int64(6))") }
            if row.int64(3) != row.int64(1) + row.int64(2) {
                parts.append("amount is \(row.int64(3)) but items_total + delivery_total is \(row.int64(1) + row.int64(2))")
            }
            return "order \(row.int64(0)): " + parts.joined(separator: "; ")
        }
    }

    private static func lineProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query("""
            WITH lines AS (SELECT order_id, product_id, sum(CASE WHEN stock_taken = 1 THEN quantity ELSE 0 END) AS units,
                                  sum(CASE WHEN stock_returned = 1 THEN quantity ELSE 0 END) AS returned
                           FROM order_lines GROUP BY order_id, product_id),
                 taken AS (SELECT order_id, product_id, -sum(change) AS units FROM stock_movements
                           WHERE kind = 'order_taken' GROUP BY order_id, product_id),
                 back AS (SELECT order_id, product_id, sum(change) AS units FROM stock_movements
                          WHERE kind IN ('order_returned', 'refund_restock') GROUP BY order_id, product_id),
                 pairs AS (SELECT order_id, product_id FROM lines UNION SELECT order_id, product_id FROM taken
                           UNION SELECT order_id, product_id FROM back)
            SELECT k.order_id, k.product_id, coalesce(l.units, 0), coalesce(t.units, 0), coalesce(b.units, 0),
                   coalesce(l.returned, 0)
            FROM pairs k
            LEFT JOIN lines l ON l.order_id = k.order_id AND l.product_id = k.product_id
            LEFT JOIN taken t ON t.order_id = k.order_id AND t.product_id = k.product_id
            LEFT JOIN back b ON b.order_id = k.order_id AND b.product_id = k.product_id
            LEFT JOIN orders o ON o.id = k.order_id
            WHERE coalesce(l.units, 0) <> coalesce(t.units, 0)
               OR coalesce(b.units, 0) <> coalesce(l.returned, 0)
               OR (coalesce(o.stock_returned, 0) = 1 AND coalesce(l.returned, 0) <> coalesce(l.units, 0))
            ORDER BY k.order_id, k.product_id
            """, []
        ) { row in
            let (lines, taken, back) = (row.int64(2), row.int64(3), row.int64(4))
            var parts: [String] = []
            if lines != taken { parts.append("its lines hold \(lines) units but the inventory ledger took \(taken)") }
            let owed = row.int64(5)
            if back != owed { parts.append("the inventory ledger gave back \(back) units, not \(owed)") }
            if owed != lines, back == owed { parts.append("the order returned its stock but only \(owed) of its \(lines) units are") }
            return "order \(row.int64(0)), product \(row.int64(1)): " + parts.joined(separator: "; ")
        }
    }
}
