import KeyCatInfrastructure

/// The catalog's tables. `price` is the current selling price (the sale price while a discount
/// runs; the sweep sets it back to `regular_price` when the discount lapses) and is what the price
/// sorts read. `listed` is 1 for a listing that appears in lists: 0 once deleted or when its
/// seller withdraws. Every list query has a partial index over listed rows ending in the id, the
/// tie-breaker; `category` and `seller_id` get their own, the most common filters.
enum CatalogSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE products (
            id                \(type.rowID),
            seller_id         \(type.integer) NOT NULL REFERENCES users (id),
            kind              \(type.text) NOT NULL CHECK (kind IN ('commercial', 'secondhand', 'group_buy')),
            category          \(type.text) NOT NULL CHECK (category IN ('keyboard', 'keycap', 'switch', 'accessory')),
            title             \(type.text) NOT NULL,
            content           \(type.text) NOT NULL,
            regular_price     \(type.integer) NOT NULL,
            price             \(type.integer) NOT NULL CHECK (price > 0 AND price <= regular_price),
            coupon_price      \(type.integer) NOT NULL CHECK (coupon_price >= 0),
            discount_ends_at  \(type.integer),
            delivery_fee      \(type.integer) NOT NULL CHECK (delivery_fee >= 0),
            delivery_schedule \(type.text) NOT NULL,
            stock             \(type.integer) NOT NULL CHECK (stock >= 0),
            images            \(type.text) NOT NULL DEFAULT '',
            spec_input        \(type.text),
            spec_connection   \(type.text),
            spec_pcb          \(type.text),
            spec_switch_type  \(type.text),
            spec_layout       \(type.text),
            spec_keycap_profile \(type.text),
            spec_backlight    \(type.integer),
            rating_count      \(type.integer) NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
            rating_sum        \(type.integer) NOT NULL DEFAULT 0 CHECK (rating_sum >= 0),
            rating_score      \(type.integer) NOT NULL DEFAULT 0,
            bookmark_count    \(type.integer) NOT NULL DEFAULT 0 CHECK (bookmark_count >= 0),
            version           \(type.integer) NOT NULL DEFAULT 1,
            created_at        \(type.integer) NOT NULL,
            updated_at        \(type.integer) NOT NULL,
            deleted_at        \(type.integer),
            listed            \(type.integer) NOT NULL DEFAULT 1
        )\(type.tableOptions);

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
        """
    }

    /// The channel on which Postgres announces that the catalog changed.
    static let changeChannel = "keycat_catalog"

    /// The transaction-local setting the same trigger turns on, which a server reads with its
    /// `COMMIT` (``commitProbe``) to learn whether its own write changed the catalog.
    static let changeSetting = "keycat.catalog_changed"

    /// The query that reads ``changeSetting`` before a write's `COMMIT`.
    static let commitProbe = "SELECT current_setting('\(changeSetting)', true)"

    /// What the trigger below does, as a statement: for a write that changes what the catalog
    /// answers without writing a table that has the trigger (a search reindex whose postings
    /// were already right still rewrites the listings' documents).
    static let announceChangePostgres = "SELECT pg_notify('\(changeChannel)', current_schema()), set_config('\(changeSetting)', 'on', true)"

    /// On Postgres, every statement that writes `products` (insert, update, delete, `COPY`,
    /// truncate) — the one table the catalog's read answers are built from — announces it when
    /// its transaction commits: `pg_notify` on ``changeChannel`` with the schema as payload, so
    /// schemas sharing a database do not wake each other, and a transaction's many statements
    /// send one notification (Postgres folds equal ones). Servers keep their catalog answers
    /// under the count of these (``PostgresNotificationCounter``). The trigger also turns on
    /// ``changeSetting`` for the rest of the transaction, so the server that wrote knows at once.
    static let changeNotificationsPostgres = """
        CREATE FUNCTION keycat_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('\(changeChannel)', current_schema());
            PERFORM set_config('\(changeSetting)', 'on', true);
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER products_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
            FOR EACH STATEMENT EXECUTE FUNCTION keycat_catalog_changed();
        """

    /// Migration 35: the image sweep empties the image lists of listings withdrawn long ago
    /// (`SQLProductRepository.forgetImages`), found by this index, not by reading every listing
    /// under SQLite's write lock. A listing leaves it once its list is empty.
    static let withdrawnWithImagesSQL = """
        CREATE INDEX products_withdrawn_with_images ON products (deleted_at) WHERE deleted_at IS NOT NULL AND images <> '';
        """

    /// Migration 42: the listings of sellers who withdrew before withdrawal deleted them
    /// (``SQLProductRepository/deleteListings(of:at:on:)``) are deleted as of the withdrawal, with
    /// their search entries. They were unlisted, so their words were not counted and no count
    /// moves; their images go at the next sweep, their withdrawal being older than the retention
    /// or not. No event is written for them: they left the catalog long ago.
    static let withdrawnSellersListingsSQL = """
        DELETE FROM search_terms WHERE product_id IN (
            SELECT p.id FROM products p JOIN users u ON u.id = p.seller_id WHERE u.withdrawn_at IS NOT NULL AND p.deleted_at IS NULL);
        DELETE FROM search_documents WHERE product_id IN (
            SELECT p.id FROM products p JOIN users u ON u.id = p.seller_id WHERE u.withdrawn_at IS NOT NULL AND p.deleted_at IS NULL);
        UPDATE products SET deleted_at = (SELECT u.withdrawn_at FROM users u WHERE u.id = products.seller_id), listed = 0,
                            version = version + 1
        WHERE deleted_at IS NULL AND seller_id IN (SELECT id FROM users WHERE withdrawn_at IS NOT NULL);
        """
}
