import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Follows in the `follows` table, with `users.follower_count` (the followee's) and
/// `users.following_count` (the follower's) moved in the same transaction only when a row was
/// really added or removed.
package struct SQLFollowRepository<Database: SQLDatabase>: FollowRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func add(follower: UserID, followee: UserID, at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                for user in [followee, follower] where try SocialRows.liveNick(user, on: connection) == nil {
                    throw KeyCatError.notFound("user", user)
                }
                let added = try connection.run(
                    """
                    INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (follower_id, followee_id) DO NOTHING
                    """,
                    [.integer(follower.rawValue), .integer(followee.rawValue), StoredTime.value(now)]) == 1
                if added { try Self.adjustCounts(follower: follower, followee: followee, by: 1, on: connection) }
                return added
            }
        }
    }

    package func remove(follower: UserID, followee: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let removed = try connection.run(
                    "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?",
                    [.integer(follower.rawValue), .integer(followee.rawValue)]) == 1
                if removed { try Self.adjustCounts(follower: follower, followee: followee, by: -1, on: connection) }
                return removed
            }
        }
    }

    package func contains(follower: UserID, followee: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?",
                    [.integer(follower.rawValue), .integer(followee.rawValue)]) { _ in true } ?? false
            }
        }
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

    private static func adjustCounts(follower: UserID, followee: UserID, by delta: Int, on connection: some SQLConnection) throws {
        try connection.run("UPDATE users SET follower_count = follower_count + ? WHERE id = ?",
                           [.int(delta), .integer(followee.rawValue)])
        try connection.run("UPDATE users SET following_count = following_count + ? WHERE id = ?",
                           [.int(delta), .integer(follower.rawValue)])
    }
}
