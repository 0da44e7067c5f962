import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Log-in and sign-up attempts counted in the `login_attempts` table, so every process on the
/// database shares one budget per (email, client), email, client and sign-up client.
///
/// Keys are stored as SHA-256 digests of `scope:value`: the table never holds the emails or
/// addresses of strangers, and every row has the same small size whatever was typed.
///
/// A refusal is decided from a read: a refused attempt opens no write transaction, so a flood of
/// them neither queues on SQLite's one writer nor commits anything on Postgres. An attempt the
/// read admits is decided again, and counted, in one write transaction (SQLite's one writer,
/// `SERIALIZABLE` on Postgres), so two processes cannot both take the last attempt; one that lost the
/// last attempt between the two is refused there, still writing nothing. Cost: a read and one
/// small write per admitted attempt (a commit, fsynced under `synchronous=FULL`), next to the
/// ~150 ms of PBKDF2 a log-in already spends.
package struct SQLLogInAttemptStore<Database: SQLDatabase>: LogInAttemptStore {
    private let database: Database
    /// Closed windows swept per admission, through the index on `window_start`.
    private static var sweepBatch: Int { 10 }

    package init(database: Database) { self.database = database }

    package func admit(_ keys: [LogInThrottleKey], at now: Date, window: TimeInterval) async throws(KeyCatError) -> TimeInterval? {
        let nowMillis = StoredTime.milliseconds(now)
        let windowMillis = Int64(window * 1000)
        if let wait = try await storage({
            try await database.read { try Self.wait(for: keys, on: $0, now: nowMillis, window: windowMillis) }
        }) {
            return wait
        }
        return try await storage {
            try await database.write { connection -> TimeInterval? in
                if let wait = try Self.wait(for: keys, on: connection, now: nowMillis, window: windowMillis) { return wait }
                for key in keys {
                    // A closed window starts again at one attempt.
                    try connection.run("""
                        INSERT INTO login_attempts (scope, key_digest, window_start, attempts, last_attempt_at)
                        VALUES (?, ?, ?, 1, ?)
                        ON CONFLICT (scope, key_digest) DO UPDATE SET
                            last_attempt_at = excluded.last_attempt_at,
                            attempts = CASE WHEN login_attempts.window_start + ? > excluded.window_start
                                            THEN login_attempts.attempts + 1 ELSE 1 END,
                            window_start = CASE WHEN login_attempts.window_start + ? > excluded.window_start
                                                THEN login_attempts.window_start ELSE excluded.window_start END
                        """, Self.id(key) + [.integer(nowMillis), .integer(nowMillis), .integer(windowMillis), .integer(windowMillis)])
                }
                // Only the scopes this window length applies to: sign-ups keep longer windows.
                let scopes = Set(keys.map(\.scope)).sorted()
                try connection.run("""
                    DELETE FROM login_attempts WHERE (scope, key_digest) IN
                        (SELECT scope, key_digest FROM login_attempts
                         WHERE window_start <= ? AND scope IN (\(scopes.map { _ in "?" }.joined(separator: ", ")))
                         LIMIT \(Self.sweepBatch))
                    """, [.integer(nowMillis - windowMillis)] + scopes.map(SQLValue.text))
                return nil
            }
        }
    }

    package func succeeded(clearing cleared: LogInThrottleKey, refunding refunded: [LogInThrottleKey], at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                try connection.run("DELETE FROM login_attempts WHERE scope = ? AND key_digest = ?", Self.id(cleared))
                for key in refunded {
                    try connection.run(
                        "UPDATE login_attempts SET attempts = attempts - 1 WHERE scope = ? AND key_digest = ? AND attempts > 0",
                        Self.id(key))
                }
            }
        }
    }

    /// How long the longest-waiting of `keys` refuses an attempt at `now`, or nil when none does.
    private static func wait(for keys: [LogInThrottleKey], on connection: Database.Connection,
                             now nowMillis: Int64, window windowMillis: Int64) throws -> TimeInterval? {
        var wait: Int64 = 0
        for key in keys {
            let row = try connection.queryOne(
                "SELECT window_start, attempts, last_attempt_at FROM login_attempts WHERE scope = ? AND key_digest = ?",
                Self.id(key)) { ($0.int64(0), $0.int64(1), $0.int64(2)) }
            guard let (start, attempts, last) = row, start + windowMillis > nowMillis, attempts >= Int64(key.limit) else {
                continue
            }
            if let slowDown = key.slowDown {
                let excess = Int(min(attempts - Int64(key.limit) + 1, 1_000))
                let allowedAt = last + Int64((slowDown.delay(excess: excess) * 1000).rounded(.up))
                if allowedAt > nowMillis { wait = max(wait, allowedAt - nowMillis) }
            } else {
                wait = max(wait, start + windowMillis - nowMillis)
            }
        }
        return wait > 0 ? TimeInterval(wait) / 1000 : nil
    }

    private static func id(_ key: LogInThrottleKey) -> [SQLValue] {
        [.text(key.scope), .blob(SHA256.hash("\(key.scope):\(key.value)"))]
    }
}
