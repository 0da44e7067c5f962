import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Toggle buckets in the `toggle_buckets` table, so every server on one database shares each
/// user's budget (KeyCat uses it on Postgres; on SQLite, one process per file is the rule and
/// the buckets stay in memory).
///
/// A take is one write transaction: read the row, refill and take as ``TokenBucket`` says, write
/// it back. Two servers taking for one user at once are ordered by the store (SQLite's one writer;
/// on Postgres a serializable transaction that runs again when it loses), so the budget is one,
/// not one per server. Cost: a toggle is two statements and a commit more than in memory (on
/// Postgres over loopback, well under a millisecond), and one row per user who ever toggled.
package struct SQLToggleBucketStore<Database: SQLDatabase>: TokenBucketStore {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func take(for user: UserID, limit: RateLimit, at now: Date) async throws(KeyCatError) -> Double? {
        try await storage {
            try await database.write { connection -> Double? in
                var bucket = try connection.queryOne(
                    "SELECT tokens, updated_at FROM toggle_buckets WHERE user_id = ?", [.integer(user.rawValue)]
                ) { TokenBucket(tokens: $0.double(0), updatedAt: StoredTime.date($0.int64(1))) } ?? .full(limit, at: now)
                let wait = bucket.take(limit, at: now)
                try connection.run("""
                    INSERT INTO toggle_buckets (user_id, tokens, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                    """, [.integer(user.rawValue), .real(bucket.tokens), StoredTime.value(bucket.updatedAt)])
                return wait
            }
        }
    }
}
