import KeyCatInfrastructure

/// The tables of carts, orders, payments, refunds, webhook events and idempotency keys
/// (migration 4). Times are Unix milliseconds; money is integer won.
///
/// `orders.stock_returned` records whether the order's units went back to `products.stock`, so
/// `db check` can prove stock accounting: an order holds its units exactly while it is not
/// returned. `payments.imp_uid` is unique (one row per PG payment) and at most one `paid` payment
/// exists per order (a partial unique index): an order can never be charged twice.
enum OrdersSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE cart_lines (
            user_id    \(type.integer) NOT NULL REFERENCES users (id),
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            quantity   \(type.integer) NOT NULL CHECK (quantity BETWEEN 1 AND 99),
            added_at   \(type.integer) NOT NULL,
            PRIMARY KEY (user_id, product_id)
        )\(type.tableOptions);

        CREATE TABLE orders (
            id              \(type.rowID),
            merchant_uid    \(type.text) NOT NULL UNIQUE CHECK (length(merchant_uid) <= 40),
            buyer_id        \(type.integer) NOT NULL REFERENCES users (id),
            items_total     \(type.integer) NOT NULL CHECK (items_total >= 0),
            delivery_total  \(type.integer) NOT NULL CHECK (delivery_total >= 0),
            amount          \(type.integer) NOT NULL CHECK (amount > 0),
            status          \(type.text) NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'shipped', 'delivered',
                                'partially_refunded', 'refunded', 'expired', 'cancelled', 'failed')),
            expires_at      \(type.integer) NOT NULL,
            refunded_amount \(type.integer) NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
            stock_returned  \(type.integer) NOT NULL DEFAULT 0,
            outcome_unknown \(type.integer) NOT NULL DEFAULT 0,
            imp_uid         \(type.text),
            carrier         \(type.text),
            tracking_number \(type.text),
            created_at      \(type.integer) NOT NULL,
            updated_at      \(type.integer) NOT NULL,
            paid_at         \(type.integer)
        )\(type.tableOptions);
        CREATE INDEX orders_newest ON orders (created_at, id);
        CREATE INDEX orders_by_buyer ON orders (buyer_id, created_at, id);
        CREATE INDEX orders_by_status ON orders (status, created_at, id);
        CREATE INDEX orders_to_reconcile ON orders (expires_at) WHERE status = 'awaiting_payment';

        CREATE TABLE order_lines (
            order_id     \(type.integer) NOT NULL REFERENCES orders (id),
            line         \(type.integer) NOT NULL,
            product_id   \(type.integer) NOT NULL REFERENCES products (id),
            title        \(type.text) NOT NULL,
            unit_price   \(type.integer) NOT NULL CHECK (unit_price >= 0),
            quantity     \(type.integer) NOT NULL CHECK (quantity BETWEEN 1 AND 99),
            delivery_fee \(type.integer) NOT NULL CHECK (delivery_fee >= 0),
            PRIMARY KEY (order_id, line)
        )\(type.tableOptions);
        CREATE INDEX order_lines_by_product ON order_lines (product_id);

        CREATE TABLE payments (
            id           \(type.rowID),
            imp_uid      \(type.text) NOT NULL UNIQUE,
            order_id     \(type.integer) NOT NULL REFERENCES orders (id),
            merchant_uid \(type.text) NOT NULL,
            amount       \(type.integer) NOT NULL,
            status       \(type.text) NOT NULL CHECK (status IN ('paid', 'voiding', 'voided')),
            created_at   \(type.integer) NOT NULL,
            updated_at   \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE UNIQUE INDEX payments_one_paid_per_order ON payments (order_id) WHERE status = 'paid';
        CREATE INDEX payments_by_order ON payments (order_id, id);
        CREATE INDEX payments_voiding ON payments (id) WHERE status = 'voiding';

        CREATE TABLE refunds (
            id         \(type.rowID),
            order_id   \(type.integer) NOT NULL REFERENCES orders (id),
            amount     \(type.integer) NOT NULL CHECK (amount > 0),
            checksum   \(type.integer) NOT NULL,
            reason     \(type.text) NOT NULL,
            restock    \(type.integer) NOT NULL,
            target     \(type.text) NOT NULL,
            status     \(type.text) NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
            created_at \(type.integer) NOT NULL,
            updated_at \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE INDEX refunds_by_order ON refunds (order_id, id);
        CREATE UNIQUE INDEX refunds_one_pending_per_order ON refunds (order_id) WHERE status = 'pending';

        CREATE TABLE webhook_events (
            id          \(type.text) PRIMARY KEY,
            received_at \(type.integer) NOT NULL
        )\(type.tableOptions);

        CREATE TABLE idempotency_keys (
            scope       \(type.text) NOT NULL,
            key         \(type.text) NOT NULL,
            fingerprint \(type.text) NOT NULL,
            response    \(type.blob),
            created_at  \(type.integer) NOT NULL,
            expires_at  \(type.integer) NOT NULL,
            PRIMARY KEY (scope, key)
        )\(type.tableOptions);
        """
    }

    /// The index reconciliation's idempotency-key sweep reads from, a range from its start
    /// (the "idempotency key expiry index" migration; see `SQLIdempotencyStore.sweepSQL`).
    static let idempotencyExpirySQL = """
        CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
        """

    /// The caller's idempotency key and request fingerprint on each refund (the "refund request
    /// keys" migration), written in the transaction that records the refund `pending` before the
    /// PG is called. A retry with the same key finds this durable row and settles it instead of refunding again, even when
    /// the first attempt could not write its answer (disk full) or the key's 24-hour record is
    /// gone. A refused (`failed`) refund changed nothing, so its key may be used again.
    static func refundRequestKeysSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE refunds ADD COLUMN request_key \(type.text);
        ALTER TABLE refunds ADD COLUMN request_fingerprint \(type.text);
        CREATE UNIQUE INDEX refunds_by_request_key ON refunds (order_id, request_key)
            WHERE request_key IS NOT NULL AND status <> 'failed';
        """
    }
}

extension OrdersSchema {
    /// Migration 38: the category each line was sold in, as its listing had it at checkout. The
    /// sale's commission is the category's rate (``SettlementLedger/saleStatement(of:paymentImpUID:at:)``);
    /// read from the live listing when the payment landed, it let a seller move a listing to a
    /// cheaper category for the minutes its buyers took to pay, and back. Lines from before
    /// this migration have none and take their listing's, as before.
    static func lineCategorySQL(_ type: SQLDialect.ColumnTypes) -> String {
        "ALTER TABLE order_lines ADD COLUMN category \(type.text);"
    }

    /// Migration 43: who asked for each refund (an audit actor), so that its failure, or its
    /// completion by reconciliation after a lost answer, is recorded under their name. Earlier
    /// refunds keep NULL.
    static func refundRequesterSQL(_ type: SQLDialect.ColumnTypes) -> String {
        "ALTER TABLE refunds ADD COLUMN requested_by \(type.text);"
    }

    /// Reconciliation forgets handled PG webhook ids after ``CheckoutService/webhookIDRetention``,
    /// oldest first, so the table stops growing with every payment the shop ever took.
    static let webhookEventsByReceiptSQL = "CREATE INDEX webhook_events_by_received_at ON webhook_events (received_at);"
}
