import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Idempotency keys in the `idempotency_keys` table. A row without a response is a request
/// still running; claiming happens in one immediate transaction, so of two processes presenting
/// the same new key, exactly one runs the request.
///
/// Keys past their retention are never deleted on the claim path (that used to scan the table
/// inside the write lock); reconciliation sweeps them a batch at a time through the
/// `idempotency_keys_by_expiry` index (``sweepSQL``).
package struct SQLIdempotencyStore<Database: SQLDatabase>: IdempotencyStore {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func claim(scope: String, key: String, fingerprint: String, at now: Date, retention: TimeInterval,
                       lease: TimeInterval) async throws(KeyCatError) -> IdempotencyClaim {
        try await storage {
            try await database.write { connection in
                let id: [SQLValue] = [.text(scope), .text(key)]
                let existing = try connection.queryOne(
                    "SELECT fingerprint, response, created_at, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?", id
                ) { row in (row.string(0), row.isNull(1) ? nil : Data(row.bytes(1)), StoredTime.date(row.int64(2)), StoredTime.date(row.int64(3))) }
                if let (stored, response, createdAt, expiresAt) = existing, expiresAt > now {
                    guard stored == fingerprint else {
                        throw KeyCatError(.idempotencyKeyReused, "the idempotency key was used with other input",
                                          context: ["idempotency_key": key])
                    }
                    if let response { return IdempotencyClaim.replay(response) }
                    if createdAt.addingTimeInterval(lease) > now {
                        throw KeyCatError(.requestInProgress, "the first request with this idempotency key is still running; retry shortly",
                                          context: ["idempotency_key": key])
                    }
                }
                try connection.run("""
                    INSERT INTO idempotency_keys (scope, key, fingerprint, response, created_at, expires_at)
                    VALUES (?, ?, ?, NULL, ?, ?)
                    ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, response = NULL,
                        created_at = excluded.created_at, expires_at = excluded.expires_at
                    """, id + [.text(fingerprint), StoredTime.value(now), StoredTime.value(now.addingTimeInterval(retention))])
                // No sweeping here: the claim stays a primary-key read and one upsert. Expired
                // keys are deleted in bounded batches by ``sweepExpired(before:limit:)``.
                return IdempotencyClaim.claimed
            }
        }
    }

    /// Deletes the oldest expired keys, at most `limit`, in one short write transaction: a
    /// range read from the start of the `idempotency_keys_by_expiry` index, so the cost follows
    /// `limit`, not the size of the table.
    package static var sweepSQL: String {
        """
        DELETE FROM idempotency_keys WHERE (scope, key) IN
            (SELECT scope, key FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
        """
    }

    package func sweepExpired(before now: Date, limit: Int) async throws(KeyCatError) -> Int {
        guard limit > 0 else { return 0 }
        return try await storage {
            try await database.write { try $0.run(Self.sweepSQL, [StoredTime.value(now), .int(limit)]) }
        }
    }

    // Both act only on the claim made at `claimedAt` (its `created_at`): after a lease ran out
    // and another request took the key over, the first one's late answer or failure must not
    // overwrite or delete the second one's claim.

    package func complete(scope: String, key: String, response: Data, claimedAt: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write {
                try $0.run("UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ? AND created_at = ? AND response IS NULL",
                           [.data(response), .text(scope), .text(key), StoredTime.value(claimedAt)])
            }
        }
    }

    package func release(scope: String, key: String, claimedAt: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write {
                try $0.run("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND created_at = ? AND response IS NULL",
                           [.text(scope), .text(key), StoredTime.value(claimedAt)])
            }
        }
    }
}

/// Webhook ids in the `webhook_events` table: the primary key makes the first insert win.
package struct SQLWebhookEventStore<Database: SQLDatabase>: WebhookEventStore {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func recordFirstDelivery(of id: String, at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write {
                try $0.run("INSERT INTO webhook_events (id, received_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", [.text(id), StoredTime.value(now)]) == 1
            }
        }
    }

    package func isRecorded(_ id: String) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.readStatement { try $0.queryOne("SELECT 1 FROM webhook_events WHERE id = ?", [.text(id)]) { _ in true } ?? false }
        }
    }
    /// A range read from the start of `webhook_events_by_received_at` (migration 41), so the
    /// cost follows `limit`, not the size of the table.
    package func sweep(recordedBefore cutoff: Date, limit: Int) async throws(KeyCatError) -> Int {
        guard limit > 0 else { return 0 }
        return try await storage {
            try await database.write {
                try $0.run("""
                    DELETE FROM webhook_events WHERE id IN
                        (SELECT id FROM webhook_events WHERE received_at < ? ORDER BY received_at LIMIT ?)
                    """, [StoredTime.value(cutoff), .int(limit)])
            }
        }
    }
}
