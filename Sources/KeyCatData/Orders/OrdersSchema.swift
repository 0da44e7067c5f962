/// The tables of carts, orders, payments, refunds, webhook events and idempotency keys
/// (migration 4). Times are Unix milliseconds; money is integer won.
///
/// `orders.stock_returned` records whether the order's units went back to `products.stock`, so
/// `db check` can prove stock accounting: an order holds its units exactly while it is not
/// returned. `payments.imp_uid` is unique (one row per PG payment) and at most one `paid` payment
/// exists per order (a partial unique index): an order can never be charged twice.
enum OrdersSchema {
    static let sql = """
        CREATE TABLE cart_lines (
            user_id    INTEGER NOT NULL REFERENCES users (id),
            product_id INTEGER NOT NULL REFERENCES products (id),
            quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 99),
            added_at   INTEGER NOT NULL,
            PRIMARY KEY (user_id, product_id)
        ) STRICT;

        CREATE TABLE orders (
            id              INTEGER PRIMARY KEY,
            merchant_uid    TEXT NOT NULL UNIQUE CHECK (length(merchant_uid) <= 40),
            buyer_id        INTEGER NOT NULL REFERENCES users (id),
            items_total     INTEGER NOT NULL CHECK (items_total >= 0),
            delivery_total  INTEGER NOT NULL CHECK (delivery_total >= 0),
            amount          INTEGER NOT NULL CHECK (amount > 0),
            status          TEXT NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'shipped', 'delivered',
                                'partially_refunded', 'refunded', 'expired', 'cancelled', 'failed')),
            expires_at      INTEGER NOT NULL,
            refunded_amount INTEGER NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
            stock_returned  INTEGER NOT NULL DEFAULT 0,
            outcome_unknown INTEGER NOT NULL DEFAULT 0,
            imp_uid         TEXT,
            carrier         TEXT,
            tracking_number TEXT,
            created_at      INTEGER NOT NULL,
            updated_at      INTEGER NOT NULL,
            paid_at         INTEGER
        ) STRICT;
        CREATE INDEX orders_newest ON orders (created_at, id);
        CREATE INDEX orders_by_buyer ON orders (buyer_id, created_at, id);
        CREATE INDEX orders_by_status ON orders (status, created_at, id);
        CREATE INDEX orders_to_reconcile ON orders (expires_at) WHERE status = 'awaiting_payment';

        CREATE TABLE order_lines (
            order_id     INTEGER NOT NULL REFERENCES orders (id),
            line         INTEGER NOT NULL,
            product_id   INTEGER NOT NULL REFERENCES products (id),
            title        TEXT NOT NULL,
            unit_price   INTEGER NOT NULL CHECK (unit_price >= 0),
            quantity     INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 99),
            delivery_fee INTEGER NOT NULL CHECK (delivery_fee >= 0),
            PRIMARY KEY (order_id, line)
        ) STRICT;
        CREATE INDEX order_lines_by_product ON order_lines (product_id);

        CREATE TABLE payments (
            id           INTEGER PRIMARY KEY,
            imp_uid      TEXT NOT NULL UNIQUE,
            order_id     INTEGER NOT NULL REFERENCES orders (id),
            merchant_uid TEXT NOT NULL,
            amount       INTEGER NOT NULL,
            status       TEXT NOT NULL CHECK (status IN ('paid', 'voiding', 'voided')),
            created_at   INTEGER NOT NULL,
            updated_at   INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX payments_one_paid_per_order ON payments (order_id) WHERE status = 'paid';
        CREATE INDEX payments_by_order ON payments (order_id, id);
        CREATE INDEX payments_voiding ON payments (id) WHERE status = 'voiding';

        CREATE TABLE refunds (
            id         INTEGER PRIMARY KEY,
            order_id   INTEGER NOT NULL REFERENCES orders (id),
            amount     INTEGER NOT NULL CHECK (amount > 0),
            checksum   INTEGER NOT NULL,
            reason     TEXT NOT NULL,
            restock    INTEGER NOT NULL,
            target     TEXT NOT NULL,
            status     TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX refunds_by_order ON refunds (order_id, id);
        CREATE UNIQUE INDEX refunds_one_pending_per_order ON refunds (order_id) WHERE status = 'pending';

        CREATE TABLE webhook_events (
            id          TEXT PRIMARY KEY,
            received_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE idempotency_keys (
            scope       TEXT NOT NULL,
            key         TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            response    BLOB,
            created_at  INTEGER NOT NULL,
            expires_at  INTEGER NOT NULL,
            PRIMARY KEY (scope, key)
        ) STRICT;
        """

    /// The index reconciliation's idempotency-key sweep reads from, a range from its start
    /// (the "idempotency key expiry index" migration; see `SQLiteIdempotencyStore.sweepSQL`).
    static let idempotencyExpirySQL = """
        CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
        """

    /// The caller's idempotency key and request fingerprint on each refund (the "refund request
    /// keys" migration), written in the transaction that records the refund `pending` before the
    /// PG is called. A retry with the same key finds this durable row and settles it instead of refunding again, even when
    /// the first attempt could not write its answer (disk full) or the key's 24-hour record is
    /// gone. A refused (`failed`) refund changed nothing, so its key may be used again.
    static let refundRequestKeysSQL = """
        ALTER TABLE refunds ADD COLUMN request_key TEXT;
        ALTER TABLE refunds ADD COLUMN request_fingerprint TEXT;
        CREATE UNIQUE INDEX refunds_by_request_key ON refunds (order_id, request_key)
            WHERE request_key IS NOT NULL AND status <> 'failed';
        """
}
