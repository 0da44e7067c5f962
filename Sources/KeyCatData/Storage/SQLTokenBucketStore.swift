import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A budget's token buckets in a table of the database, so every server on one database shares
/// each user's budget (KeyCat uses it on Postgres; on SQLite, one process per file is the rule
/// and the buckets stay in memory): the toggles' (bookmark and follow changes) and a seller's
/// image uploads, each in a table of its own of one shape (user, tokens, when).
///
/// A take is one write transaction: read the row, refill and take as ``TokenBucket`` says, write
/// it back. Two servers taking for one user at once are ordered by the store (SQLite's one writer;
/// on Postgres a serializable transaction that runs again when it loses), so the budget is one,
/// not one per server. Cost: a take is two statements and a commit more than in memory (on
/// Postgres over loopback, well under a millisecond), and one row per user who ever took.
package struct SQLTokenBucketStore<Database: SQLDatabase>: TokenBucketStore {
    private let database: Database
    private let selectSQL: String
    private let upsertSQL: String

    package init(database: Database, budget: TokenBucketBudget) {
        self.database = database
        selectSQL = "SELECT tokens, updated_at FROM \(budget.rawValue) WHERE user_id = ?"
        upsertSQL = """
            INSERT INTO \(budget.rawValue) (user_id, tokens, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
            """
    }

    package func take(_ count: Int, for user: UserID, limit: RateLimit, at now: Date) async throws(KeyCatError) -> Double? {
        let (selectSQL, upsertSQL) = (selectSQL, upsertSQL)
        return try await storage {
            try await database.write { connection -> Double? in
                var bucket = try connection.queryOne(selectSQL, [.integer(user.rawValue)]) {
                    TokenBucket(tokens: $0.double(0), updatedAt: StoredTime.date($0.int64(1)))
                } ?? .full(limit, at: now)
                let wait = bucket.take(limit, count: count, at: now)
                try connection.run(upsertSQL, [.integer(user.rawValue), .real(bucket.tokens), StoredTime.value(bucket.updatedAt)])
                return wait
            }
        }
    }
}

/// A budget a ``SQLTokenBucketStore`` keeps, by the table that keeps it.
package enum TokenBucketBudget: String, Sendable, CaseIterable {
    /// Bookmark and follow changes (migration 12).
    case toggles = "toggle_buckets"
    /// A seller's image uploads (migration 33).
    case imageUploads = "image_upload_buckets"
}

extension TokenBucketBudget {
    /// The budget's table as its migration creates it: one bucket per user.
    func tableSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE \(rawValue) (
            user_id    \(type.integer) NOT NULL PRIMARY KEY REFERENCES users (id),
            tokens     \(type.real) NOT NULL,
            updated_at \(type.integer) NOT NULL
        )\(type.tableOptions);
        """
    }
}
