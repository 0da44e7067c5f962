import Foundation
import KeyCatDomain
import Synchronization

/// Idempotency keys in memory, for tests of the use cases without a file. Behaves as
/// ``SQLIdempotencyStore`` does.
package final class InMemoryIdempotencyStore: IdempotencyStore {
    private struct Record {
        var fingerprint: String
        var response: Data?
        var createdAt: Date
        var expiresAt: Date
    }

    private let records = Mutex<[String: Record]>([:])

    package init() {}

    package func claim(scope: String, key: String, fingerprint: String, at now: Date, retention: TimeInterval,
                       lease: TimeInterval) throws(KeyCatError) -> IdempotencyClaim {
        try records.withLock { records throws(KeyCatError) -> IdempotencyClaim in
            let id = scope + "\u{0}" + key
            if let record = records[id], record.expiresAt > now {
                guard record.fingerprint == fingerprint else {
                    throw KeyCatError(.idempotencyKeyReused, "the idempotency key was used with other input", context: ["idempotency_key": key])
                }
                if let response = record.response { return .replay(response) }
                if record.createdAt.addingTimeInterval(lease) > now {
                    throw KeyCatError(.requestInProgress, "the first request with this idempotency key is still running; retry shortly",
                                      context: ["idempotency_key": key])
                }
            }
            records[id] = Record(fingerprint: fingerprint, response: nil, createdAt: now, expiresAt: now.addingTimeInterval(retention))
            return .claimed
        }
    }

    package func sweepExpired(before now: Date, limit: Int) throws(KeyCatError) -> Int {
        records.withLock { records in
            let expired = records.filter { $0.value.expiresAt <= now }
                .sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(max(0, limit))
            for (id, _) in expired { records[id] = nil }
            return expired.count
        }
    }

    package func complete(scope: String, key: String, response: Data, claimedAt: Date) throws(KeyCatError) {
        records.withLock { records in
            let id = scope + "\u{0}" + key
            if records[id]?.createdAt == claimedAt, records[id]?.response == nil { records[id]?.response = response }
        }
    }

    package func release(scope: String, key: String, claimedAt: Date) throws(KeyCatError) {
        records.withLock { records in
            let id = scope + "\u{0}" + key
            if records[id]?.createdAt == claimedAt, records[id]?.response == nil { records[id] = nil }
        }
    }
}

/// Webhook ids in memory, for tests of the use cases without a file.
package final class InMemoryWebhookEventStore: WebhookEventStore {
    private let seen = Mutex<[String: Date]>([:])

    package init() {}

    package func recordFirstDelivery(of id: String, at now: Date) throws(KeyCatError) -> Bool {
        seen.withLock { seen in
            guard seen[id] == nil else { return false }
            seen[id] = now
            return true
        }
    }

    package func isRecorded(_ id: String) throws(KeyCatError) -> Bool {
        seen.withLock { $0[id] != nil }
    }

    package func sweep(recordedBefore cutoff: Date, limit: Int) throws(KeyCatError) -> Int {
        seen.withLock { seen in
            let old = seen.filter { $0.value < cutoff }.sorted { $0.value < $1.value }.prefix(max(limit, 0))
            for (id, _) in old { seen[id] = nil }
            return old.count
        }
    }
}
