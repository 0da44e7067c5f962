import KeyCatInfrastructure

/// The stored counters `db check` verifies against the rows they count: a product's
/// `rating_count`, `rating_sum` and `rating_score` against its reviews, its `bookmark_count`
/// against its bookmarks, and a user's `follower_count` and `following_count` against their
/// follows. Each broken counter is one sentence naming the row, the stored and the true value.
enum CounterInvariants {
    static func problems(on connection: some SQLConnection) throws -> [String] {
        try ratingProblems(on: connection) + bookmarkProblems(on: connection) + followProblems(on: connection)
    }

    private static func ratingProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query(
            """
            SELECT p.id, p.rating_count, p.rating_sum, p.rating_score,
                   coalesce(r.n, 0), coalesce(r.total, 0), coalesce(r.score, 0)
            FROM products p
            LEFT JOIN (SELECT product_id, count(*) AS n, CAST(sum(rating) AS BIGINT) AS total,
                              CAST(sum(rating) AS BIGINT) * 1000 / count(*) AS score
                       FROM reviews GROUP BY product_id) r
                ON r.product_id = p.id
            WHERE p.rating_count <> coalesce(r.n, 0) OR p.rating_sum <> coalesce(r.total, 0)
               OR p.rating_score <> coalesce(r.score, 0)
            ORDER BY p.id
            """, []
        ) { row in
            var parts: [String] = []
            if row.int64(1) != row.int64(4) { parts.append("rating_count is \(row.int64(1)) but it has \(row.int64(4)) reviews") }
            if row.int64(2) != row.int64(5) { parts.append("rating_sum is \(row.int64(2)) but its reviews add up to \(row.int64(5))") }
            if row.int64(3) != row.int64(6) { parts.append("rating_score is \(row.int64(3)) but should be \(row.int64(6))") }
            return "product \(row.int64(0)): " + parts.joined(separator: "; ")
        }
    }

    private static func bookmarkProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query(
            """
            SELECT p.id, p.bookmark_count, coalesce(b.n, 0)
            FROM products p
            LEFT JOIN (SELECT product_id, count(*) AS n FROM bookmarks GROUP BY product_id) b ON b.product_id = p.id
            WHERE p.bookmark_count <> coalesce(b.n, 0)
            ORDER BY p.id
            """, []
        ) { row in "product \(row.int64(0)): bookmark_count is \(row.int64(1)) but it has \(row.int64(2)) bookmarks" }
    }

    private static func followProblems(on connection: some SQLConnection) throws -> [String] {
        try connection.query(
            """
            SELECT u.id, u.follower_count, coalesce(ers.n, 0), u.following_count, coalesce(ing.n, 0)
            FROM users u
            LEFT JOIN (SELECT followee_id, count(*) AS n FROM follows GROUP BY followee_id) ers ON ers.followee_id = u.id
            LEFT JOIN (SELECT follower_id, count(*) AS n FROM follows GROUP BY follower_id) ing ON ing.follower_id = u.id
            WHERE u.follower_count <> coalesce(ers.n, 0) OR u.following_count <> coalesce(ing.n, 0)
            ORDER BY u.id
            """, []
        ) { row in
            var parts: [String] = []
            if row.int64(1) != row.int64(2) { parts.append("follower_count is \(row.int64(1)) but \(row.int64(2)) follow them") }
            if row.int64(3) != row.int64(4) { parts.append("following_count is \(row.int64(3)) but they follow \(row.int64(4))") }
            return "user \(row.int64(0)): " + parts.joined(separator: "; ")
        }
    }

    /// Whether the schema has the social tables yet: `db check` opens older databases as they
    /// are, without migrating.
    static func isApplicable(on connection: some SQLConnection) throws -> Bool {
        try connection.hasTable("follows")
    }
}
