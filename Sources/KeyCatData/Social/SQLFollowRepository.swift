import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Follows in the `follows` table, with `users.follower_count` (the followee's) and
/// `users.following_count` (the follower's) moved in the same transaction only when a row was
/// really added or removed (``SQLToggleTable``, as bookmarks do).
package struct SQLFollowRepository<Database: SQLDatabase>: FollowRepository {
    private let database: Database
    private let toggles: SQLToggleTable<Database>

    package init(database: Database) {
        self.database = database
        toggles = SQLToggleTable(database: database, table: "follows", user: "follower_id", target: "followee_id",
                                 counters: [.init(table: "users", column: "follower_count", owner: .target),
                                            .init(table: "users", column: "following_count", owner: .user)])
    }

    package func add(_ followee: UserID, by follower: UserID, at now: Date) async throws(KeyCatError) -> Bool {
        // Both accounts are counted, so the toggle has locked them.
        let live = SocialRows.liveUserSQL(locking: nil, in: Database.Connection.dialect)
        return try await toggles.add(followee, by: follower, at: now, requiring: [followee, follower].map {
            .init(sql: live, arguments: [.integer($0.rawValue)], unmet: .notFound("user", $0))
        })
    }

    package func remove(_ followee: UserID, by follower: UserID) async throws(KeyCatError) -> Bool {
        try await toggles.remove(followee, by: follower)
    }

    package func contains(_ followee: UserID, by follower: UserID) async throws(KeyCatError) -> Bool {
        try await toggles.contains(followee, by: follower)
    }

    package func counts(of user: UserID) async throws(KeyCatError) -> FollowCounts? {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT follower_count, following_count FROM users WHERE id = ?", [.integer(user.rawValue)]
                ) { FollowCounts(followers: $0.int(0), following: $0.int(1)) }
            }
        }
    }

    package func list(_ direction: FollowDirection, of user: UserID, after position: CursorPosition?, limit: Int)
        async throws(KeyCatError) -> [FollowEntry]
    {
        let (sql, keyset) = Self.listSQL(direction, after: position)
        return try await storage {
            try await database.read { connection in
                try connection.query(sql, [.integer(user.rawValue)] + keyset + [.int(limit)]) { row in
                    FollowEntry(id: row.int64(0), userID: UserID(row.int64(1)), nick: row.string(2),
                                profileImage: row.optionalString(3), isWithdrawn: !row.isNull(4),
                                followedAt: StoredTime.date(row.int64(5)))
                }
            }
        }
    }

    /// The SQL of one page over `follows_by_followee` (followers) or `follows_by_follower`
    /// (following) — parameters: the user, the keyset's, the limit — and the keyset's arguments.
    static func listSQL(_ direction: FollowDirection, after position: CursorPosition?) -> (String, [SQLValue]) {
        // Followers: rows where the user is the followee, showing the follower; following: the reverse.
        let (mine, theirs) = direction == .followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
        let keyset = SocialRows.keyset("follows", after: position)
        return ("""
            SELECT follows.id, users.id, users.nick, users.profile_image, users.withdrawn_at, follows.created_at
            FROM follows JOIN users ON users.id = follows.\(theirs)
            WHERE follows.\(mine) = ?\(keyset.condition)
            ORDER BY follows.created_at DESC, follows.id DESC LIMIT ?
            """, keyset.arguments)
    }
}
