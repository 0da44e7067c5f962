import KeyCatInfrastructure

/// The inventory ledger (`stock_movements`): one row per change of a product's stock, written in
/// the same transaction as the change, so `products.stock` is always the sum of the product's
/// movements (see ``StockLedger`` and ``LedgerInvariants``). Order movements name their order:
/// for each (order, product), the units taken equal the units on the order's lines, and the units
/// given back equal them once the order returned its stock.
///
/// A database that predates the ledger gets, per product, one `opening` row with the stock its
/// unreturned orders hold added back, then an `order_taken` row per (order, product) and an
/// `order_returned` (or, for a refunded order, `refund_restock`) row per returned one: the sums
/// agree with today's stock and every order is already accounted for. (Each order's own columns are
/// grouped by as well: one value per order, and Postgres, which runs the same list, allows no
/// bare columns beside an aggregate.)
enum InventoryLedgerSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE stock_movements (
            id         \(type.rowID),
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            kind       \(type.text) NOT NULL CHECK (kind IN ('opening', 'listed', 'order_taken', 'order_returned',
                           'refund_restock', 'adjustment')),
            change     \(type.integer) NOT NULL,
            order_id   \(type.integer) REFERENCES orders (id),
            actor      \(type.text) NOT NULL DEFAULT 'system',
            reason     \(type.text) NOT NULL DEFAULT '',
            created_at \(type.integer) NOT NULL,
            CHECK ((order_id IS NOT NULL) = (kind IN ('order_taken', 'order_returned', 'refund_restock')))
        )\(type.tableOptions);
        CREATE INDEX stock_movements_by_product ON stock_movements (product_id, id);
        CREATE INDEX stock_movements_by_order ON stock_movements (order_id, product_id) WHERE order_id IS NOT NULL;

        INSERT INTO stock_movements (product_id, kind, change, reason, created_at)
            SELECT p.id, 'opening',
                   p.stock + coalesce((SELECT sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
                                       WHERE l.product_id = p.id AND o.stock_returned = 0), 0),
                   'stock when the ledger began', p.created_at
            FROM products p ORDER BY p.id;
        INSERT INTO stock_movements (product_id, kind, change, order_id, created_at)
            SELECT l.product_id, 'order_taken', -sum(l.quantity), l.order_id, o.created_at
            FROM order_lines l JOIN orders o ON o.id = l.order_id
            GROUP BY l.order_id, l.product_id, o.created_at ORDER BY l.order_id, l.product_id;
        INSERT INTO stock_movements (product_id, kind, change, order_id, created_at)
            SELECT l.product_id, CASE WHEN o.status = 'refunded' THEN 'refund_restock' ELSE 'order_returned' END,
                   sum(l.quantity), l.order_id, o.updated_at
            FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE o.stock_returned = 1
            GROUP BY l.order_id, l.product_id, o.status, o.updated_at ORDER BY l.order_id, l.product_id;
        """
    }

}
