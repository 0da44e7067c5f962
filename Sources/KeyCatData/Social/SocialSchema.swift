/// Reviews, bookmarks and follows. Every list has an index ending in `(created_at,
/// id)` so a newest-first page is an index range scan; the unique indexes make the toggles
/// idempotent and keep one review per buyer and product. The counters they drive live on the
/// rows they describe: `products.rating_*` and `bookmark_count` (created with the catalog) and
/// the users' follower and following counts, added here.
enum SocialSchema {
    static let sql = """
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
        """
}
