import KeyCatInfrastructure

/// KeyCat's schema as numbered migrations (architecture §7), one list for both stores. Append,
/// never edit: a released migration is history.
///
/// Each step's DDL is written once. Where it names a column type it takes the store's spelling
/// of it (``SQLDialect/ColumnTypes``), so SQLite and Postgres get the same tables, columns,
/// checks and partial indexes, each in its own types; a step about something only one store has
/// gives each store its own text. What each store runs is pinned in golden files
/// (`Tests/KeyCatDataTests/Golden/`, ``script(for:)``).
package enum KeyCatSchema {
    /// Every migration, for connections of one store: each runs its step's DDL as that store
    /// spells it.
    package static func migrations<Connection: SQLConnection>(
        on _: Connection.Type = Connection.self
    ) -> [SchemaMigration<Connection>] {
        steps.map { step in
            SchemaMigration(version: step.version, name: step.name) { try $0.execute(step.sql(for: $0.dialect)) }
        }
    }

    /// Every migration as SQLite runs it.
    package static let migrations: [SQLiteMigration] = migrations(on: SQLiteConnection.self)

    /// One migration: its number, its name and its DDL for each store.
    package struct Step: Sendable {
        package let version: Int
        package let name: String
        private let ddl: @Sendable (SQLDialect) -> String

        /// A step whose DDL names column types, each spelled by the store that runs it.
        init(version: Int, name: String, ddl: @escaping @Sendable (SQLDialect.ColumnTypes) -> String) {
            self.version = version
            self.name = name
            self.ddl = { ddl($0.columnTypes) }
        }

        /// A step whose DDL is the same text on both stores (indexes, updates).
        init(version: Int, name: String, sql: String) {
            self.version = version
            self.name = name
            self.ddl = { _ in sql }
        }

        /// A step about something each store does its own way, or only one of them has.
        init(version: Int, name: String, sqlite: String, postgres: String) {
            self.version = version
            self.name = name
            self.ddl = { $0 == .sqlite ? sqlite : postgres }
        }

        /// The step's DDL as the store of `dialect` runs it.
        package func sql(for dialect: SQLDialect) -> String { ddl(dialect) }
    }

    package static let steps: [Step] = [
        Step(version: 1, name: "settings and audit log") { type in """
            CREATE TABLE settings (
                key   \(type.text) PRIMARY KEY,
                value \(type.blob) NOT NULL
            )\(type.tableOptions);

            CREATE TABLE audit_log (
                id         \(type.rowID),
                actor      \(type.text) NOT NULL,
                action     \(type.text) NOT NULL,
                target     \(type.text) NOT NULL DEFAULT '',
                detail     \(type.text) NOT NULL DEFAULT '',
                created_at \(type.integer) NOT NULL
            )\(type.tableOptions);
            CREATE INDEX audit_log_by_time ON audit_log (created_at, id);
            """ },
        Step(version: 2, name: "accounts, refresh tokens and seller applications", ddl: AccountsSchema.sql),
        Step(version: 3, name: "catalog", ddl: CatalogSchema.sql),
        Step(version: 4, name: "reviews, bookmarks and follows", ddl: SocialSchema.sql),
        Step(version: 5, name: "carts, orders, payments, refunds, webhooks and idempotency keys",
             ddl: OrdersSchema.sql),
        Step(version: 6, name: "statistics indexes", sql: StatisticsSchema.sql),
        Step(version: 7, name: "log-in attempts") { type in """
            -- Failed log-in throttling, shared by every process (SQLiteLogInAttemptStore). Keys are
            -- SHA-256 digests of scope:value.
            CREATE TABLE login_attempts (
                scope        \(type.text) NOT NULL CHECK (scope IN ('account', 'client')),
                key_digest   \(type.blob) NOT NULL,
                window_start \(type.integer) NOT NULL,
                attempts     \(type.integer) NOT NULL CHECK (attempts >= 0),
                PRIMARY KEY (scope, key_digest)
            )\(type.tableOptions);
            CREATE INDEX login_attempts_by_window ON login_attempts (window_start);
            """ },
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
        Step(version: 10, name: "inventory ledger", ddl: InventoryLedgerSchema.sql),
        Step(version: 11, name: "refund request keys", ddl: OrdersSchema.refundRequestKeysSQL),
        Step(version: 12, name: "shared toggle buckets") { type in """
            -- Bookmark and follow rate limits shared by every server on the database
            -- (SQLTokenBucketStore): one token bucket per user.
            \(TokenBucketBudget.toggles.tableSQL(type))
            """ },
        // Version 13 belongs to another change of the same release; it stands here only so the
        // list stays contiguous on this branch, and is replaced by that change when merged.
        Step(version: 13, name: "token versions, suspensions and per-client throttles") { type in """
            -- Bumped when an account's access tokens must stop at once (password, withdrawal,
            -- suspension, role); every access token carries the version it was issued at.
            ALTER TABLE users ADD COLUMN token_version \(type.integer) NOT NULL DEFAULT 0;
            ALTER TABLE users ADD COLUMN suspended_at \(type.integer);
            -- Throttling counts, now per (account, client), account, client and sign-up client,
            -- with the last attempt's time for slowed budgets. Counts are short-lived: the old
            -- table's are dropped rather than carried over.
            DROP TABLE login_attempts;
            CREATE TABLE login_attempts (
                scope           \(type.text) NOT NULL CHECK (scope IN ('account', 'client', 'account_client', 'sign_up')),
                key_digest      \(type.blob) NOT NULL,
                window_start    \(type.integer) NOT NULL,
                attempts        \(type.integer) NOT NULL CHECK (attempts >= 0),
                last_attempt_at \(type.integer) NOT NULL,
                PRIMARY KEY (scope, key_digest)
            )\(type.tableOptions);
            CREATE INDEX login_attempts_by_window ON login_attempts (window_start);
            """ },
        Step(version: 14, name: "competing applications for one business number", sql: """
            -- A pending application no longer holds its business number: the number's real owner
            -- may apply beside it, and the operator decides (approving one rejects the others).
            -- Only an approved application holds its number.
            DROP INDEX seller_applications_one_live_per_number;
            CREATE UNIQUE INDEX seller_applications_one_approved_per_number
                ON seller_applications (business_number) WHERE status = 'approved';
            CREATE INDEX seller_applications_by_number ON seller_applications (business_number, status);
            """),
        Step(version: 15, name: "delivery times") { type in """
            -- A review needs a delivered order; a partial refund after delivery keeps it. Orders
            -- delivered before this migration take their last change as their delivery time.
            ALTER TABLE orders ADD COLUMN delivered_at \(type.integer);
            UPDATE orders SET delivered_at = updated_at WHERE status = 'delivered';
            """ },
        Step(version: 16, name: "checkout keys on their orders") { type in """
            -- A checkout's Idempotency-Key is written with the order it makes, in the same
            -- transaction: a retry finds the order even when the key's stored answer was lost.
            ALTER TABLE orders ADD COLUMN request_key \(type.text);
            CREATE UNIQUE INDEX orders_by_request_key ON orders (buyer_id, request_key) WHERE request_key IS NOT NULL;
            """ },
        Step(version: 17, name: "marketplace fulfilment", ddl: FulfilmentSchema.sql),
        Step(version: 18, name: "a seller's ledger by time", sql: """
            -- A seller's statistics and their upcoming settlement read their own entries by time.
            CREATE INDEX settlement_entries_by_seller ON settlement_entries (seller_id, occurred_at, id);
            """),
        Step(version: 19, name: "images in the store") { type in """
            -- Product images by the SHA-256 of their bytes. On Postgres they live here, so an
            -- image any server took is served by every server and travels in pg_dump; on SQLite
            -- they stay files beside the database (its backups copy them) and this stays empty.
            CREATE TABLE image_blobs (
                sha256    \(type.text) NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
                format    \(type.text) NOT NULL CHECK (format IN ('jpg', 'png', 'webp', 'gif')),
                bytes     \(type.blob) NOT NULL,
                stored_at \(type.integer) NOT NULL
            )\(type.tableOptions);
            """ },
        Step(version: 20, name: "catalog change notifications", sqlite: """
            -- Nothing on SQLite: a process learns of every commit to the file from its data
            -- version (PRAGMA data_version).
            """, postgres: CatalogSchema.changeNotificationsPostgres),
        Step(version: 21, name: "purchase confirmation and return requests", ddl: FulfilmentSchema.receiptsSQL),
        Step(version: 22, name: "device-token throttles") { type in """
            -- Log-in throttling also counts per device token (a client that logged in before)
            -- and per account's signed-in sessions (password changes). Counts are short-lived:
            -- the old table's are dropped rather than carried over.
            DROP TABLE login_attempts;
            CREATE TABLE login_attempts (
                scope           \(type.text) NOT NULL
                                CHECK (scope IN ('account', 'client', 'account_client', 'sign_up', 'device', 'signed_in')),
                key_digest      \(type.blob) NOT NULL,
                window_start    \(type.integer) NOT NULL,
                attempts        \(type.integer) NOT NULL CHECK (attempts >= 0),
                last_attempt_at \(type.integer) NOT NULL,
                PRIMARY KEY (scope, key_digest)
            )\(type.tableOptions);
            CREATE INDEX login_attempts_by_window ON login_attempts (window_start);
            """ },
        Step(version: 23, name: "lines sold on payment") { type in """
            -- A line whose product was already held unpaid up to its cap takes no stock at
            -- checkout: its units are taken when the order is paid. Every line before this
            -- migration took its units at checkout.
            ALTER TABLE order_lines ADD COLUMN stock_taken \(type.integer) NOT NULL DEFAULT 1;
            """ },
        // Listings written before this step are indexed when the store next opens for writes
        // (``SearchIndex/catchUp``): the analysis runs in Swift, not in SQL.
        Step(version: 24, name: "product search and tags", sqlite: SearchSchema.sqlite, postgres: SearchSchema.postgres),
        Step(version: 25, name: "events", sqlite: EventSchema.sqlite, postgres: EventSchema.postgres),
        Step(version: 26, name: "webhook endpoints and deliveries", ddl: WebhookSchema.ddl),
        // Search's forward index replaces its index by product: re-indexing a listing writes
        // only the postings that changed.
        Step(version: 27, name: "search forward index", sqlite: SearchSchema.forwardIndexSQLite,
             postgres: SearchSchema.forwardIndexPostgres),
        Step(version: 28, name: "approved returns until refunded", ddl: FulfilmentSchema.returnRefundsSQL),
        Step(version: 29, name: "settlement balances carried", ddl: FulfilmentSchema.settlementBalancesSQL),
        Step(version: 30, name: "units sold that stand", sql: SearchSchema.unitsSoldThatStandSQL),
        // Accounts withdrawn before withdrawal erased who the person was lose it now, as later
        // ones do in their withdrawal (``AccountRules/withdrawnEmail(_:)``, ``AccountRules/withdrawnNick``;
        // `WithdrawnAccountMigrationTests` holds the two spellings equal).
        Step(version: 31, name: "withdrawn accounts erased", sql: """
            UPDATE users SET email = 'user-' || id || '@withdrawn.invalid', nick = '탈퇴한 회원',
                             password_hash = '!', phone = NULL, birthday = NULL, profile_image = NULL
            WHERE withdrawn_at IS NOT NULL;
            """),
        Step(version: 32, name: "sellers' own bookmarks removed", sql: SocialSchema.ownBookmarksRemovedSQL),
        Step(version: 33, name: "shared image upload buckets") { type in """
            -- A seller's image-upload budget shared by every server on the database
            -- (SQLTokenBucketStore): one token bucket per user, as toggle_buckets.
            \(TokenBucketBudget.imageUploads.tableSQL(type))
            """ },
        Step(version: 34, name: "return disputes", sqlite: FulfilmentSchema.returnDisputesSQL(.sqlite),
             postgres: FulfilmentSchema.returnDisputesSQL(.postgres)),
        Step(version: 35, name: "withdrawn listings with images", sql: CatalogSchema.withdrawnWithImagesSQL),
        Step(version: 36, name: "carrier tracking", ddl: FulfilmentSchema.carrierTrackingSQL),
        Step(version: 37, name: "parcels by tracking number", sql: FulfilmentSchema.trackingNumbersSQL),
        Step(version: 38, name: "order lines' categories", ddl: OrdersSchema.lineCategorySQL),
        Step(version: 39, name: "half-refunded sales", sql: SearchSchema.halfRefundedSalesSQL),
        Step(version: 40, name: "review removals", ddl: SocialSchema.reviewRemovalsSQL),
        Step(version: 41, name: "webhook ids by receipt", sql: OrdersSchema.webhookEventsByReceiptSQL),
        Step(version: 42, name: "withdrawn sellers' listings deleted", sql: CatalogSchema.withdrawnSellersListingsSQL),
        Step(version: 43, name: "refund requesters", ddl: OrdersSchema.refundRequesterSQL),
        Step(version: 44, name: "value of units sold", ddl: SearchSchema.valueSoldSQL),
        Step(version: 45, name: "registered representatives", ddl: AccountsSchema.registryOwnersSQL),
    ]

    /// The migrator over every migration, for either store (inferred from the database it is
    /// given).
    package static func migrator<Connection: SQLConnection>(
        on _: Connection.Type = Connection.self
    ) -> SchemaMigrator<Connection> {
        // The list is a constant checked by the tests; a broken list is a programming error.
        try! SchemaMigrator(migrations: migrations(on: Connection.self))
    }
}
