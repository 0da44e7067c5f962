/// The marketplace's tables (the "marketplace fulfilment" migration): address books, the
/// addresses orders ship to, per-seller shipments, and the settlement ledger.
///
/// - `order_addresses` holds an order's copy of its address (one row per order that has one),
///   apart from `orders` so anonymising it touches nothing else.
/// - `shipments`: one per (order, seller). `order_lines.shipment_id` says which parcel a line
///   travels in; `order_lines.stock_returned` says its units went back (the order's flag means
///   all of them did); `refunded_at` marks a line refunded on its own.
/// - `settlement_entries` is the ledger settlements add up: one `sale` row per paid line and per
///   shipment fee, written with the payment; `refund` rows with each refund. A closed period's
///   rows carry its settlement and never change.
///
/// Orders made before this migration get their shipments here: one per seller of their lines,
/// charging the fees those lines were charged, in the state the order was in. Their payments and
/// refunds have no settlement entries: settlement starts with the payments made after it.
enum FulfilmentSchema {
    static let sql = """
        CREATE TABLE addresses (
            id           INTEGER PRIMARY KEY,
            user_id      INTEGER NOT NULL REFERENCES users (id),
            recipient    TEXT NOT NULL,
            phone        TEXT NOT NULL,
            postcode     TEXT NOT NULL,
            road_address TEXT NOT NULL,
            detail       TEXT NOT NULL,
            request      TEXT NOT NULL,
            is_default   INTEGER NOT NULL DEFAULT 0,
            created_at   INTEGER NOT NULL,
            updated_at   INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX addresses_by_user ON addresses (user_id, id);
        CREATE UNIQUE INDEX addresses_one_default ON addresses (user_id) WHERE is_default = 1;

        CREATE TABLE order_addresses (
            order_id      INTEGER NOT NULL PRIMARY KEY REFERENCES orders (id),
            recipient     TEXT NOT NULL,
            phone         TEXT NOT NULL,
            postcode      TEXT NOT NULL,
            road_address  TEXT NOT NULL,
            detail        TEXT NOT NULL,
            request       TEXT NOT NULL,
            anonymised_at INTEGER
        ) STRICT;

        CREATE TABLE shipments (
            id              INTEGER PRIMARY KEY,
            order_id        INTEGER NOT NULL REFERENCES orders (id),
            seller_id       INTEGER NOT NULL REFERENCES users (id),
            status          TEXT NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled')),
            delivery_fee    INTEGER NOT NULL CHECK (delivery_fee >= 0),
            carrier         TEXT,
            tracking_number TEXT,
            created_at      INTEGER NOT NULL,
            updated_at      INTEGER NOT NULL,
            shipped_at      INTEGER,
            delivered_at    INTEGER
        ) STRICT;
        CREATE UNIQUE INDEX shipments_by_order ON shipments (order_id, seller_id);
        CREATE INDEX shipments_by_seller ON shipments (seller_id, created_at, order_id);
        CREATE INDEX shipments_by_seller_status ON shipments (seller_id, status, created_at, order_id);

        ALTER TABLE order_lines ADD COLUMN shipment_id INTEGER REFERENCES shipments (id);
        ALTER TABLE order_lines ADD COLUMN stock_returned INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE order_lines ADD COLUMN refunded_at INTEGER;
        CREATE INDEX order_lines_by_shipment ON order_lines (shipment_id);
        UPDATE order_lines SET stock_returned = 1 WHERE order_id IN (SELECT id FROM orders WHERE stock_returned = 1);

        ALTER TABLE refunds ADD COLUMN shipment_id INTEGER REFERENCES shipments (id);
        ALTER TABLE refunds ADD COLUMN refund_lines TEXT;
        ALTER TABLE refunds ADD COLUMN includes_fee INTEGER NOT NULL DEFAULT 0;

        INSERT INTO shipments (order_id, seller_id, status, delivery_fee, carrier, tracking_number, created_at, updated_at,
                               shipped_at, delivered_at)
        SELECT o.id, p.seller_id,
               CASE WHEN o.delivered_at IS NOT NULL THEN 'delivered'
                    WHEN o.carrier IS NOT NULL THEN 'shipped'
                    WHEN o.status IN ('paid', 'awaiting_payment') THEN 'pending'
                    ELSE 'cancelled' END,
               sum(l.delivery_fee), o.carrier, o.tracking_number, o.created_at, o.updated_at,
               CASE WHEN o.carrier IS NOT NULL THEN o.updated_at END, o.delivered_at
        FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN products p ON p.id = l.product_id
        GROUP BY o.id, p.seller_id, o.status, o.carrier, o.tracking_number, o.created_at, o.updated_at, o.delivered_at;
        UPDATE order_lines SET shipment_id = (
            SELECT s.id FROM shipments s JOIN products p ON p.seller_id = s.seller_id
            WHERE s.order_id = order_lines.order_id AND p.id = order_lines.product_id);

        CREATE TABLE settlement_periods (
            period    TEXT PRIMARY KEY,
            starts_at INTEGER NOT NULL,
            ends_at   INTEGER NOT NULL,
            closed_at INTEGER NOT NULL,
            closed_by TEXT NOT NULL
        ) STRICT;

        CREATE TABLE settlements (
            id            INTEGER PRIMARY KEY,
            period        TEXT NOT NULL REFERENCES settlement_periods (period),
            seller_id     INTEGER NOT NULL REFERENCES users (id),
            sales         INTEGER NOT NULL,
            delivery_fees INTEGER NOT NULL,
            refunds       INTEGER NOT NULL,
            commission    INTEGER NOT NULL,
            payout        INTEGER NOT NULL,
            entries       INTEGER NOT NULL,
            created_at    INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX settlements_by_period ON settlements (period, seller_id);
        CREATE INDEX settlements_by_seller ON settlements (seller_id, id);

        CREATE TABLE settlement_entries (
            id            INTEGER PRIMARY KEY,
            kind          TEXT NOT NULL CHECK (kind IN ('sale', 'refund')),
            seller_id     INTEGER NOT NULL REFERENCES users (id),
            order_id      INTEGER NOT NULL REFERENCES orders (id),
            shipment_id   INTEGER NOT NULL REFERENCES shipments (id),
            line          INTEGER,
            payment_id    INTEGER REFERENCES payments (id),
            refund_id     INTEGER REFERENCES refunds (id),
            category      TEXT,
            amount        INTEGER NOT NULL CHECK (amount > 0),
            commission    INTEGER,
            occurred_at   INTEGER NOT NULL,
            settlement_id INTEGER REFERENCES settlements (id)
        ) STRICT;
        CREATE INDEX settlement_entries_open ON settlement_entries (occurred_at, id) WHERE settlement_id IS NULL;
        CREATE INDEX settlement_entries_by_settlement ON settlement_entries (settlement_id, occurred_at, id);
        CREATE INDEX settlement_entries_by_order ON settlement_entries (order_id, line);
        """
}
