import KeyCatInfrastructure

/// Reviews, bookmarks and follows. Every list has an index ending in `(created_at,
/// id)` so a newest-first page is an index range scan; the unique indexes make the toggles
/// idempotent and keep one review per buyer and product. The counters they drive live on the
/// rows they describe: `products.rating_*` and `bookmark_count` (created with the catalog) and
/// the users' follower and following counts, added here.
enum SocialSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE reviews (
            id         \(type.rowID),
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            author_id  \(type.integer) NOT NULL REFERENCES users (id),
            rating     \(type.integer) NOT NULL CHECK (rating BETWEEN 1 AND 5),
            content    \(type.text) NOT NULL,
            created_at \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE UNIQUE INDEX reviews_one_per_author ON reviews (product_id, author_id);
        CREATE INDEX reviews_by_product ON reviews (product_id, created_at, id);
        CREATE INDEX reviews_by_author  ON reviews (author_id, created_at, id);

        CREATE TABLE bookmarks (
            id         \(type.rowID),
            user_id    \(type.integer) NOT NULL REFERENCES users (id),
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            created_at \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE UNIQUE INDEX bookmarks_one_per_user ON bookmarks (user_id, product_id);
        CREATE INDEX bookmarks_by_user    ON bookmarks (user_id, created_at, id);
        CREATE INDEX bookmarks_by_product ON bookmarks (product_id);

        CREATE TABLE follows (
            id          \(type.rowID),
            follower_id \(type.integer) NOT NULL REFERENCES users (id),
            followee_id \(type.integer) NOT NULL REFERENCES users (id),
            created_at  \(type.integer) NOT NULL,
            CHECK (follower_id <> followee_id)
        )\(type.tableOptions);
        CREATE UNIQUE INDEX follows_once ON follows (follower_id, followee_id);
        CREATE INDEX follows_by_follower ON follows (follower_id, created_at, id);
        CREATE INDEX follows_by_followee ON follows (followee_id, created_at, id);

        ALTER TABLE users ADD COLUMN follower_count  \(type.integer) NOT NULL DEFAULT 0 CHECK (follower_count >= 0);
        ALTER TABLE users ADD COLUMN following_count \(type.integer) NOT NULL DEFAULT 0 CHECK (following_count >= 0);
        """
    }

    /// Migration 32: sellers' bookmarks of their own listings, refused since (they lifted the
    /// ranking), go, and the counts they had moved are counted again.
    static let ownBookmarksRemovedSQL = """
        DELETE FROM bookmarks
        WHERE EXISTS (SELECT 1 FROM products p WHERE p.id = bookmarks.product_id AND p.seller_id = bookmarks.user_id);
        UPDATE products SET bookmark_count = (SELECT count(*) FROM bookmarks b WHERE b.product_id = products.id)
        WHERE bookmark_count <> (SELECT count(*) FROM bookmarks b WHERE b.product_id = products.id);
        """

    /// Migration 40: the reviews an operator removed, one row per author and product, so the
    /// author cannot post the same review again a moment later (``SQLReviewRepository``). An
    /// author who deletes their own review may write another.
    static func reviewRemovalsSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE review_removals (
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            author_id  \(type.integer) NOT NULL REFERENCES users (id),
            removed_at \(type.integer) NOT NULL,
            PRIMARY KEY (product_id, author_id)
        )\(type.tableOptions);
        """
    }
}
