import KeyCatInfrastructure

/// KeyCat's schema as numbered migrations (architecture §7). Append, never edit: a released
/// migration is history.
package enum KeyCatSchema {
    /// Every migration as SQLite runs it. Postgres runs the same list, translated
    /// (``postgresMigrations``).
    package static let migrations: [SQLiteMigration] = steps.map {
        SQLiteMigration(version: $0.version, name: $0.name, sql: $0.sql)
    }

    /// One migration's number, name and SQLite DDL, shared by both stores, unless the step is
    /// about something only one store has (``postgres``).
    package struct Step: Sendable {
        package let version: Int
        package let name: String
        package let sql: String
        /// The step's Postgres DDL, written as such, where it is not ``sql`` translated.
        package var postgres: String? = nil
    }

    package static let steps: [Step] = [
        Step(version: 1, name: "settings and audit log", sql: """
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
            """),
        Step(version: 2, name: "accounts, refresh tokens and seller applications", sql: """
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
            """),
        Step(version: 3, name: "catalog", sql: CatalogSchema.sql),
        Step(version: 4, name: "reviews, bookmarks and follows", sql: SocialSchema.sql),
        Step(version: 5, name: "carts, orders, payments, refunds, webhooks and idempotency keys",
             sql: OrdersSchema.sql),
        Step(version: 6, name: "statistics indexes", sql: StatisticsSchema.sql),
        Step(version: 7, name: "log-in attempts", sql: """
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
            """),
        Step(version: 8, name: "audit log and export look-ups", sql: """
            -- `orders export` reads payments and refunds by time.
            CREATE INDEX payments_by_time ON payments (created_at, id);
            CREATE INDEX refunds_by_time ON refunds (created_at, id);
            -- `audit list --actor/--action/--target` walk these newest first.
            CREATE INDEX audit_log_by_actor  ON audit_log (actor, created_at, id);
            CREATE INDEX audit_log_by_action ON audit_log (action, created_at, id);
            CREATE INDEX audit_log_by_target ON audit_log (target, created_at, id);
            """),
        Step(version: 9, name: "idempotency key expiry index", sql: OrdersSchema.idempotencyExpirySQL),
        Step(version: 10, name: "inventory ledger", sql: InventoryLedgerSchema.sql),
        Step(version: 11, name: "refund request keys", sql: OrdersSchema.refundRequestKeysSQL),
        Step(version: 12, name: "shared toggle buckets", sql: """
            -- Bookmark and follow rate limits shared by every server on the database
            -- (SQLToggleBucketStore): one token bucket per user.
            CREATE TABLE toggle_buckets (
                user_id    INTEGER NOT NULL PRIMARY KEY REFERENCES users (id),
                tokens     REAL NOT NULL,
                updated_at INTEGER NOT NULL
            ) STRICT;
            """),
        // Version 13 belongs to another change of the same release; it stands here only so the
        // list stays contiguous on this branch, and is replaced by that change when merged.
        Step(version: 13, name: "token versions, suspensions and per-client throttles", sql: """
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
            """),
        Step(version: 14, name: "competing applications for one business number", sql: """
            -- A pending application no longer holds its business number: the number's real owner
            -- may apply beside it, and the operator decides (approving one rejects the others).
            -- Only an approved application holds its number.
            DROP INDEX seller_applications_one_live_per_number;
            CREATE UNIQUE INDEX seller_applications_one_approved_per_number
                ON seller_applications (business_number) WHERE status = 'approved';
            CREATE INDEX seller_applications_by_number ON seller_applications (business_number, status);
            """),
        Step(version: 15, name: "delivery times", sql: """
            -- A review needs a delivered order; a partial refund after delivery keeps it. Orders
            -- delivered before this migration take their last change as their delivery time.
            ALTER TABLE orders ADD COLUMN delivered_at INTEGER;
            UPDATE orders SET delivered_at = updated_at WHERE status = 'delivered';
            """),
        Step(version: 16, name: "checkout keys on their orders", sql: """
            -- A checkout's Idempotency-Key is written with the order it makes, in the same
            -- transaction: a retry finds the order even when the key's stored answer was lost.
            ALTER TABLE orders ADD COLUMN request_key TEXT;
            CREATE UNIQUE INDEX orders_by_request_key ON orders (buyer_id, request_key) WHERE request_key IS NOT NULL;
            """),
        Step(version: 17, name: "marketplace fulfilment", sql: FulfilmentSchema.sql),
        Step(version: 18, name: "a seller's ledger by time", sql: """
            -- A seller's statistics and their upcoming settlement read their own entries by time.
            CREATE INDEX settlement_entries_by_seller ON settlement_entries (seller_id, occurred_at, id);
            """),
        Step(version: 19, name: "images in the store", sql: """
            -- Product images by the SHA-256 of their bytes. On Postgres they live here, so an
            -- image any server took is served by every server and travels in pg_dump; on SQLite
            -- they stay files beside the database (its backups copy them) and this stays empty.
            CREATE TABLE image_blobs (
                sha256    TEXT NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
                format    TEXT NOT NULL CHECK (format IN ('jpg', 'png', 'webp', 'gif')),
                bytes     BLOB NOT NULL,
                stored_at INTEGER NOT NULL
            ) STRICT;
            """),
        Step(version: 20, name: "catalog change notifications", sql: """
            -- Nothing on SQLite: a process learns of every commit to the file from its data
            -- version (PRAGMA data_version).
            """, postgres: CatalogSchema.changeNotificationsPostgres),
    ]

    /// The migrator over ``migrations``.
    package static func migrator() -> SQLiteMigrator {
        // The list is a constant checked by the tests; a broken list is a programming error.
        try! SQLiteMigrator(migrations: migrations)
    }
}
