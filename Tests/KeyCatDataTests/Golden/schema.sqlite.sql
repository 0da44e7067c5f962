-- 1: settings and audit log
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
) STRICT;

CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    target     TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX audit_log_by_time ON audit_log (created_at, id);

-- 2: accounts, refresh tokens and seller applications
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL,
    nick          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    phone         TEXT,
    birthday      TEXT,
    profile_image TEXT,
    role          TEXT NOT NULL CHECK (role IN ('buyer', 'seller', 'admin')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    withdrawn_at  INTEGER
) STRICT;
-- Emails are stored case-folded; a withdrawn account frees its email.
CREATE UNIQUE INDEX users_live_email ON users (email) WHERE withdrawn_at IS NULL;

CREATE TABLE refresh_token_families (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;
CREATE INDEX refresh_token_families_by_user ON refresh_token_families (user_id);

-- Only the SHA-256 digest of a refresh token is stored.
CREATE TABLE refresh_tokens (
    id         INTEGER PRIMARY KEY,
    digest     BLOB NOT NULL UNIQUE,
    family_id  INTEGER NOT NULL REFERENCES refresh_token_families (id),
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    rotated_at INTEGER
) STRICT;
CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);

CREATE TABLE business_registry (
    business_number TEXT PRIMARY KEY,
    status          TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'closed', 'unregistered')),
    updated_at      INTEGER NOT NULL
) STRICT;

CREATE TABLE seller_applications (
    id                  INTEGER PRIMARY KEY,
    user_id             INTEGER NOT NULL REFERENCES users (id),
    business_number     TEXT NOT NULL,
    representative_name TEXT NOT NULL,
    opening_date        TEXT NOT NULL,
    registry_status     TEXT NOT NULL,
    status              TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    reason              TEXT,
    created_at          INTEGER NOT NULL,
    decided_at          INTEGER,
    decided_by          TEXT
) STRICT;
CREATE UNIQUE INDEX seller_applications_one_pending_per_user
    ON seller_applications (user_id) WHERE status = 'pending';
CREATE UNIQUE INDEX seller_applications_one_live_per_number
    ON seller_applications (business_number) WHERE status IN ('pending', 'approved');
CREATE INDEX seller_applications_by_status ON seller_applications (status, id);
CREATE INDEX seller_applications_by_user ON seller_applications (user_id, id);

-- 3: catalog
CREATE TABLE products (
    id                INTEGER PRIMARY KEY,
    seller_id         INTEGER NOT NULL REFERENCES users (id),
    kind              TEXT NOT NULL CHECK (kind IN ('commercial', 'secondhand', 'group_buy')),
    category          TEXT NOT NULL CHECK (category IN ('keyboard', 'keycap', 'switch', 'accessory')),
    title             TEXT NOT NULL,
    content           TEXT NOT NULL,
    regular_price     INTEGER NOT NULL,
    price             INTEGER NOT NULL CHECK (price > 0 AND price <= regular_price),
    coupon_price      INTEGER NOT NULL CHECK (coupon_price >= 0),
    discount_ends_at  INTEGER,
    delivery_fee      INTEGER NOT NULL CHECK (delivery_fee >= 0),
    delivery_schedule TEXT NOT NULL,
    stock             INTEGER NOT NULL CHECK (stock >= 0),
    images            TEXT NOT NULL DEFAULT '',
    spec_input        TEXT,
    spec_connection   TEXT,
    spec_pcb          TEXT,
    spec_switch_type  TEXT,
    spec_layout       TEXT,
    spec_keycap_profile TEXT,
    spec_backlight    INTEGER,
    rating_count      INTEGER NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    rating_sum        INTEGER NOT NULL DEFAULT 0 CHECK (rating_sum >= 0),
    rating_score      INTEGER NOT NULL DEFAULT 0,
    bookmark_count    INTEGER NOT NULL DEFAULT 0 CHECK (bookmark_count >= 0),
    version           INTEGER NOT NULL DEFAULT 1,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    deleted_at        INTEGER,
    listed            INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE INDEX products_newest      ON products (created_at, id)              WHERE listed = 1;
CREATE INDEX products_price       ON products (price, id)                   WHERE listed = 1;
CREATE INDEX products_rating      ON products (rating_score, id)            WHERE listed = 1;
CREATE INDEX products_popular     ON products (bookmark_count, id)          WHERE listed = 1;
CREATE INDEX products_category_newest  ON products (category, created_at, id)     WHERE listed = 1;
CREATE INDEX products_category_price   ON products (category, price, id)          WHERE listed = 1;
CREATE INDEX products_category_rating  ON products (category, rating_score, id)   WHERE listed = 1;
CREATE INDEX products_category_popular ON products (category, bookmark_count, id) WHERE listed = 1;
CREATE INDEX products_seller_newest    ON products (seller_id, created_at, id)    WHERE listed = 1;
CREATE INDEX products_seller_price     ON products (seller_id, price, id)         WHERE listed = 1;
CREATE INDEX products_seller_rating    ON products (seller_id, rating_score, id)  WHERE listed = 1;
CREATE INDEX products_seller_popular   ON products (seller_id, bookmark_count, id) WHERE listed = 1;
CREATE INDEX products_by_seller        ON products (seller_id);
CREATE INDEX products_discount_ends    ON products (discount_ends_at) WHERE discount_ends_at IS NOT NULL;

-- 4: reviews, bookmarks and follows
CREATE TABLE reviews (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    author_id  INTEGER NOT NULL REFERENCES users (id),
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    content    TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX reviews_one_per_author ON reviews (product_id, author_id);
CREATE INDEX reviews_by_product ON reviews (product_id, created_at, id);
CREATE INDEX reviews_by_author  ON reviews (author_id, created_at, id);

CREATE TABLE bookmarks (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX bookmarks_one_per_user ON bookmarks (user_id, product_id);
CREATE INDEX bookmarks_by_user    ON bookmarks (user_id, created_at, id);
CREATE INDEX bookmarks_by_product ON bookmarks (product_id);

CREATE TABLE follows (
    id          INTEGER PRIMARY KEY,
    follower_id INTEGER NOT NULL REFERENCES users (id),
    followee_id INTEGER NOT NULL REFERENCES users (id),
    created_at  INTEGER NOT NULL,
    CHECK (follower_id <> followee_id)
) STRICT;
CREATE UNIQUE INDEX follows_once ON follows (follower_id, followee_id);
CREATE INDEX follows_by_follower ON follows (follower_id, created_at, id);
CREATE INDEX follows_by_followee ON follows (followee_id, created_at, id);

ALTER TABLE users ADD COLUMN follower_count  INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0);
ALTER TABLE users ADD COLUMN following_count INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0);

-- 5: carts, orders, payments, refunds, webhooks and idempotency keys
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

-- 6: statistics indexes
CREATE INDEX orders_paid ON orders (paid_at, amount, status) WHERE paid_at IS NOT NULL;
CREATE INDEX refunds_done ON refunds (updated_at, amount) WHERE status = 'done';

-- 7: log-in attempts
-- Failed log-in throttling, shared by every process (SQLiteLogInAttemptStore). Keys are
-- SHA-256 digests of scope:value.
CREATE TABLE login_attempts (
    scope        TEXT NOT NULL CHECK (scope IN ('account', 'client')),
    key_digest   BLOB NOT NULL,
    window_start INTEGER NOT NULL,
    attempts     INTEGER NOT NULL CHECK (attempts >= 0),
    PRIMARY KEY (scope, key_digest)
) STRICT;
CREATE INDEX login_attempts_by_window ON login_attempts (window_start);

-- 8: audit log and export look-ups
-- `orders export` reads payments and refunds by time.
CREATE INDEX payments_by_time ON payments (created_at, id);
CREATE INDEX refunds_by_time ON refunds (created_at, id);
-- `audit list --actor/--action/--target` walk these newest first.
CREATE INDEX audit_log_by_actor  ON audit_log (actor, created_at, id);
CREATE INDEX audit_log_by_action ON audit_log (action, created_at, id);
CREATE INDEX audit_log_by_target ON audit_log (target, created_at, id);

-- 9: idempotency key expiry index
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);

-- 10: inventory ledger
CREATE TABLE stock_movements (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    kind       TEXT NOT NULL CHECK (kind IN ('opening', 'listed', 'order_taken', 'order_returned',
                   'refund_restock', 'adjustment')),
    change     INTEGER NOT NULL,
    order_id   INTEGER REFERENCES orders (id),
    actor      TEXT NOT NULL DEFAULT 'system',
    reason     TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    CHECK ((order_id IS NOT NULL) = (kind IN ('order_taken', 'order_returned', 'refund_restock')))
) STRICT;
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

-- 11: refund request keys
ALTER TABLE refunds ADD COLUMN request_key TEXT;
ALTER TABLE refunds ADD COLUMN request_fingerprint TEXT;
CREATE UNIQUE INDEX refunds_by_request_key ON refunds (order_id, request_key)
    WHERE request_key IS NOT NULL AND status <> 'failed';

-- 12: shared toggle buckets
-- Bookmark and follow rate limits shared by every server on the database
-- (SQLTokenBucketStore): one token bucket per user.
CREATE TABLE toggle_buckets (
    user_id    INTEGER NOT NULL PRIMARY KEY REFERENCES users (id),
    tokens     REAL NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- 13: token versions, suspensions and per-client throttles
-- Bumped when an account's access tokens must stop at once (password, withdrawal,
-- suspension, role); every access token carries the version it was issued at.
ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN suspended_at INTEGER;
-- Throttling counts, now per (account, client), account, client and sign-up client,
-- with the last attempt's time for slowed budgets. Counts are short-lived: the old
-- table's are dropped rather than carried over.
DROP TABLE login_attempts;
CREATE TABLE login_attempts (
    scope           TEXT NOT NULL CHECK (scope IN ('account', 'client', 'account_client', 'sign_up')),
    key_digest      BLOB NOT NULL,
    window_start    INTEGER NOT NULL,
    attempts        INTEGER NOT NULL CHECK (attempts >= 0),
    last_attempt_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key_digest)
) STRICT;
CREATE INDEX login_attempts_by_window ON login_attempts (window_start);

-- 14: competing applications for one business number
-- A pending application no longer holds its business number: the number's real owner
-- may apply beside it, and the operator decides (approving one rejects the others).
-- Only an approved application holds its number.
DROP INDEX seller_applications_one_live_per_number;
CREATE UNIQUE INDEX seller_applications_one_approved_per_number
    ON seller_applications (business_number) WHERE status = 'approved';
CREATE INDEX seller_applications_by_number ON seller_applications (business_number, status);

-- 15: delivery times
-- A review needs a delivered order; a partial refund after delivery keeps it. Orders
-- delivered before this migration take their last change as their delivery time.
ALTER TABLE orders ADD COLUMN delivered_at INTEGER;
UPDATE orders SET delivered_at = updated_at WHERE status = 'delivered';

-- 16: checkout keys on their orders
-- A checkout's Idempotency-Key is written with the order it makes, in the same
-- transaction: a retry finds the order even when the key's stored answer was lost.
ALTER TABLE orders ADD COLUMN request_key TEXT;
CREATE UNIQUE INDEX orders_by_request_key ON orders (buyer_id, request_key) WHERE request_key IS NOT NULL;

-- 17: marketplace fulfilment
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

-- 18: a seller's ledger by time
-- A seller's statistics and their upcoming settlement read their own entries by time.
CREATE INDEX settlement_entries_by_seller ON settlement_entries (seller_id, occurred_at, id);

-- 19: images in the store
-- Product images by the SHA-256 of their bytes. On Postgres they live here, so an
-- image any server took is served by every server and travels in pg_dump; on SQLite
-- they stay files beside the database (its backups copy them) and this stays empty.
CREATE TABLE image_blobs (
    sha256    TEXT NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
    format    TEXT NOT NULL CHECK (format IN ('jpg', 'png', 'webp', 'gif')),
    bytes     BLOB NOT NULL,
    stored_at INTEGER NOT NULL
) STRICT;

-- 20: catalog change notifications
-- Nothing on SQLite: a process learns of every commit to the file from its data
-- version (PRAGMA data_version).

-- 21: purchase confirmation and return requests
ALTER TABLE shipments ADD COLUMN confirmed_at INTEGER;
ALTER TABLE shipments ADD COLUMN confirmed_by TEXT;
CREATE INDEX shipments_awaiting_confirmation ON shipments (delivered_at, id)
    WHERE status = 'delivered' AND confirmed_at IS NULL;
CREATE TABLE return_requests (
    id          INTEGER PRIMARY KEY,
    shipment_id INTEGER NOT NULL REFERENCES shipments (id),
    order_id    INTEGER NOT NULL REFERENCES orders (id),
    seller_id   INTEGER NOT NULL REFERENCES users (id),
    buyer_id    INTEGER NOT NULL REFERENCES users (id),
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected')),
    decision    TEXT,
    decided_by  TEXT,
    created_at  INTEGER NOT NULL,
    decided_at  INTEGER
) STRICT;
CREATE UNIQUE INDEX return_requests_one_open ON return_requests (shipment_id) WHERE status = 'requested';
CREATE INDEX return_requests_by_seller ON return_requests (seller_id, status, id);
CREATE INDEX return_requests_by_order ON return_requests (order_id, id);

-- 22: device-token throttles
-- Log-in throttling also counts per device token (a client that logged in before)
-- and per account's signed-in sessions (password changes). Counts are short-lived:
-- the old table's are dropped rather than carried over.
DROP TABLE login_attempts;
CREATE TABLE login_attempts (
    scope           TEXT NOT NULL
                    CHECK (scope IN ('account', 'client', 'account_client', 'sign_up', 'device', 'signed_in')),
    key_digest      BLOB NOT NULL,
    window_start    INTEGER NOT NULL,
    attempts        INTEGER NOT NULL CHECK (attempts >= 0),
    last_attempt_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key_digest)
) STRICT;
CREATE INDEX login_attempts_by_window ON login_attempts (window_start);

-- 23: lines sold on payment
-- A line whose product was already held unpaid up to its cap takes no stock at
-- checkout: its units are taken when the order is paid. Every line before this
-- migration took its units at checkout.
ALTER TABLE order_lines ADD COLUMN stock_taken INTEGER NOT NULL DEFAULT 1;

-- 24: product search and tags
-- Up to 10 tags per listing, space-separated (a tag has no white space).
ALTER TABLE products ADD COLUMN tags TEXT NOT NULL DEFAULT '';

CREATE TABLE search_terms (
    term       TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products (id),
    weight     INTEGER NOT NULL CHECK (weight BETWEEN 1 AND 15),
    PRIMARY KEY (term, product_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX search_terms_by_product ON search_terms (product_id);

CREATE TABLE search_documents (
    product_id       INTEGER PRIMARY KEY REFERENCES products (id),
    analyzer_version INTEGER NOT NULL,
    title_key        TEXT NOT NULL,
    words            TEXT NOT NULL,
    counted          INTEGER NOT NULL DEFAULT 1 CHECK (counted IN (0, 1)),
    units_sold       INTEGER NOT NULL DEFAULT 0 CHECK (units_sold >= 0)
) STRICT;
CREATE INDEX search_documents_by_version ON search_documents (analyzer_version);

CREATE TABLE search_words (
    word     TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('word', 'tag', 'title')),
    display  TEXT NOT NULL,
    spelling TEXT NOT NULL,
    initials TEXT,
    products INTEGER NOT NULL CHECK (products >= 0),
    PRIMARY KEY (word, kind)
) STRICT, WITHOUT ROWID;
CREATE INDEX search_words_by_spelling ON search_words (spelling) WHERE products > 0;
CREATE INDEX search_words_by_initials ON search_words (initials) WHERE products > 0 AND initials IS NOT NULL;

CREATE TABLE search_synonyms (
    word       TEXT NOT NULL,
    synonym    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (word, synonym)
) STRICT, WITHOUT ROWID;

-- 25: events
CREATE TABLE events (
    position       INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE,
    type           TEXT NOT NULL,
    aggregate_kind TEXT NOT NULL,
    aggregate_id   INTEGER NOT NULL,
    occurred_at    INTEGER NOT NULL,
    schema_version INTEGER NOT NULL CHECK (schema_version >= 1),
    data           TEXT NOT NULL
) STRICT;

CREATE TRIGGER products_stock_events AFTER UPDATE OF stock ON products
WHEN (OLD.stock > 0) <> (NEW.stock > 0) AND NEW.deleted_at IS NULL
BEGIN
    INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
    VALUES ('evt_' || lower(hex(randomblob(16))),
            CASE WHEN NEW.stock = 0 THEN 'product.out_of_stock' ELSE 'product.back_in_stock' END,
            'product', NEW.id, NEW.updated_at, 1,
            json_object('product_id', NEW.id, 'seller_id', NEW.seller_id, 'title', NEW.title, 'stock', NEW.stock));
END;

-- 26: webhook endpoints and deliveries
CREATE TABLE webhook_endpoints (
    id                         INTEGER PRIMARY KEY,
    url                        TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    events                     TEXT NOT NULL,
    description                TEXT NOT NULL DEFAULT '',
    secret                     TEXT NOT NULL,
    previous_secret            TEXT,
    previous_secret_expires_at INTEGER,
    enabled                    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_reason            TEXT,
    created_at                 INTEGER NOT NULL,
    last_success_at            INTEGER
) STRICT;

CREATE TABLE webhook_dispatch (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    event_transaction INTEGER NOT NULL,
    event_position    INTEGER NOT NULL
) STRICT;
INSERT INTO webhook_dispatch (id, event_transaction, event_position) VALUES (1, 0, 0);

CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    endpoint_id      INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    event_type       TEXT NOT NULL,
    aggregate_kind   TEXT NOT NULL,
    aggregate_id     INTEGER NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  INTEGER,
    lease_owner      TEXT,
    lease_expires_at INTEGER,
    created_at       INTEGER NOT NULL,
    delivered_at     INTEGER,
    last_attempt_at  INTEGER,
    last_status      INTEGER,
    last_error       TEXT,
    last_duration_ms INTEGER,
    last_response    TEXT
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, aggregate_kind, aggregate_id, id)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_expires_at)
    WHERE lease_owner IS NOT NULL;

-- 27: search forward index
ALTER TABLE search_documents ADD COLUMN terms TEXT NOT NULL DEFAULT '';
UPDATE search_documents SET terms = coalesce((
    SELECT group_concat(t.term || ' ' || t.weight, char(10)) FROM (
        SELECT term, weight FROM search_terms WHERE product_id = search_documents.product_id ORDER BY term) t), '');
DROP INDEX search_terms_by_product;

-- 28: approved returns until refunded
ALTER TABLE return_requests ADD COLUMN restock INTEGER NOT NULL DEFAULT 0;
ALTER TABLE return_requests ADD COLUMN refunded_at INTEGER;
ALTER TABLE return_requests ADD COLUMN refund_tried_at INTEGER;
UPDATE return_requests SET refunded_at = decided_at
    WHERE status = 'approved'
      AND NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = return_requests.shipment_id AND l.refunded_at IS NULL);
CREATE INDEX return_requests_awaiting_refund ON return_requests (refund_tried_at, id)
    WHERE status = 'approved' AND refunded_at IS NULL;

-- 29: settlement balances carried
ALTER TABLE settlements ADD COLUMN brought_forward INTEGER NOT NULL DEFAULT 0 CHECK (brought_forward >= 0);
ALTER TABLE settlements ADD COLUMN carried_forward INTEGER NOT NULL DEFAULT 0 CHECK (carried_forward >= 0);

-- 30: units sold that stand
UPDATE search_documents SET units_sold = (
    SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.product_id = search_documents.product_id AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded'))
WHERE units_sold > 0;

-- 31: withdrawn accounts erased
UPDATE users SET email = 'user-' || id || '@withdrawn.invalid', nick = '탈퇴한 회원',
                 password_hash = '!', phone = NULL, birthday = NULL, profile_image = NULL
WHERE withdrawn_at IS NOT NULL;

-- 32: sellers' own bookmarks removed
DELETE FROM bookmarks
WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = bookmarks.product_id AND p.seller_id = bookmarks.user_id);
UPDATE products SET bookmark_count = (SELECT count(*) FROM bookmarks b WHERE b.product_id = products.id)
WHERE bookmark_count <> (SELECT count(*) FROM bookmarks b WHERE b.product_id = products.id);

-- 33: shared image upload buckets
-- A seller's image-upload budget shared by every server on the database
-- (SQLTokenBucketStore): one token bucket per user, as toggle_buckets.
CREATE TABLE image_upload_buckets (
    user_id    INTEGER NOT NULL PRIMARY KEY REFERENCES users (id),
    tokens     REAL NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- 34: return disputes
CREATE TABLE return_requests_disputable (
    id          INTEGER PRIMARY KEY,
    shipment_id INTEGER NOT NULL REFERENCES shipments (id),
    order_id    INTEGER NOT NULL REFERENCES orders (id),
    seller_id   INTEGER NOT NULL REFERENCES users (id),
    buyer_id    INTEGER NOT NULL REFERENCES users (id),
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected', 'disputed')),
    decision    TEXT,
    decided_by  TEXT,
    created_at  INTEGER NOT NULL,
    decided_at  INTEGER,
    restock     INTEGER NOT NULL DEFAULT 0,
    refunded_at INTEGER,
    refund_tried_at INTEGER,
    rejected_by_seller INTEGER NOT NULL DEFAULT 0,
    dispute TEXT,
    disputed_at INTEGER,
    ruling TEXT,
    ruled_by TEXT,
    ruled_at INTEGER
) STRICT;
INSERT INTO return_requests_disputable (id, shipment_id, order_id, seller_id, buyer_id, reason, status, decision, decided_by, created_at, decided_at, restock, refunded_at, refund_tried_at) SELECT id, shipment_id, order_id, seller_id, buyer_id, reason, status, decision, decided_by, created_at, decided_at, restock, refunded_at, refund_tried_at FROM return_requests;
DROP TABLE return_requests;
ALTER TABLE return_requests_disputable RENAME TO return_requests;
UPDATE return_requests SET rejected_by_seller = 1 WHERE status = 'rejected' AND decided_by = 'seller:' || seller_id;
CREATE UNIQUE INDEX return_requests_one_open ON return_requests (shipment_id) WHERE status = 'requested';
CREATE INDEX return_requests_by_seller ON return_requests (seller_id, status, id);
CREATE INDEX return_requests_by_order ON return_requests (order_id, id);
CREATE INDEX return_requests_awaiting_refund ON return_requests (refund_tried_at, id)
    WHERE status = 'approved' AND refunded_at IS NULL;

-- 35: withdrawn listings with images
CREATE INDEX products_withdrawn_with_images ON products (deleted_at) WHERE deleted_at IS NOT NULL AND images <> '';

-- 36: carrier tracking
ALTER TABLE shipments ADD COLUMN carrier_status TEXT CHECK (carrier_status IN ('not_found', 'in_transit', 'delivered', 'delivered_before_shipping'));
ALTER TABLE shipments ADD COLUMN carrier_checked_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE shipments ADD COLUMN carrier_delivered_at INTEGER;
ALTER TABLE shipments ADD COLUMN tracking_corrected_at INTEGER;
CREATE INDEX shipments_awaiting_carrier ON shipments (carrier_checked_at, id)
    WHERE status IN ('shipped', 'delivered') AND confirmed_at IS NULL AND carrier_delivered_at IS NULL;

-- 37: parcels by tracking number
CREATE INDEX shipments_by_tracking ON shipments (tracking_number, carrier) WHERE tracking_number IS NOT NULL;

-- 38: order lines' categories
ALTER TABLE order_lines ADD COLUMN category TEXT;

-- 39: half-refunded sales
UPDATE search_documents SET units_sold = (
    SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.product_id = search_documents.product_id
      AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded')
      AND 2 * (SELECT coalesce(sum(e.amount), 0) FROM settlement_entries e
               WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund') < l.unit_price * l.quantity)
WHERE product_id IN (SELECT l.product_id FROM order_lines l
                     WHERE l.refunded_at IS NULL
                       AND EXISTS (SELECT 1 FROM settlement_entries e
                                   WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund'));

-- 40: review removals
CREATE TABLE review_removals (
    product_id INTEGER NOT NULL REFERENCES products (id),
    author_id  INTEGER NOT NULL REFERENCES users (id),
    removed_at INTEGER NOT NULL,
    PRIMARY KEY (product_id, author_id)
) STRICT;

-- 41: webhook ids by receipt
CREATE INDEX webhook_events_by_received_at ON webhook_events (received_at);

-- 42: withdrawn sellers' listings deleted
DELETE FROM search_terms WHERE product_id IN (
    SELECT p.id FROM products p JOIN users u ON u.id = p.seller_id WHERE u.withdrawn_at IS NOT NULL AND p.deleted_at IS NULL);
DELETE FROM search_documents WHERE product_id IN (
    SELECT p.id FROM products p JOIN users u ON u.id = p.seller_id WHERE u.withdrawn_at IS NOT NULL AND p.deleted_at IS NULL);
UPDATE products SET deleted_at = (SELECT u.withdrawn_at FROM users u WHERE u.id = products.seller_id), listed = 0,
                    version = version + 1
WHERE deleted_at IS NULL AND seller_id IN (SELECT id FROM users WHERE withdrawn_at IS NOT NULL);

-- 43: refund requesters
ALTER TABLE refunds ADD COLUMN requested_by TEXT;

-- 44: value of units sold
ALTER TABLE search_documents ADD COLUMN value_sold INTEGER NOT NULL DEFAULT 0 CHECK (value_sold >= 0);
UPDATE search_documents SET value_sold = (
    SELECT coalesce(sum(l.unit_price * l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.product_id = search_documents.product_id
      AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded')
      AND 2 * (SELECT coalesce(sum(e.amount), 0) FROM settlement_entries e
               WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund') < l.unit_price * l.quantity)
WHERE units_sold > 0;

-- 45: registered representatives
ALTER TABLE business_registry ADD COLUMN representative_name TEXT;
ALTER TABLE business_registry ADD COLUMN opening_date TEXT;
