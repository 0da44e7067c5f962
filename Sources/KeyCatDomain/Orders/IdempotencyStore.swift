import Foundation

/// What claiming an idempotency key found.
public enum IdempotencyClaim: Sendable, Hashable {
    /// The key is new (or expired, or abandoned): run the request, then complete or release it.
    case claimed
    /// The request already ran: here is its first answer.
    case replay(Data)
}

/// Where idempotency keys and first answers are kept (DESIGN §6: 24 hours, replay, conflict on
/// other input). Implementation: `SQLiteIdempotencyStore`.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` in `scope` for a request with `fingerprint`.
    ///
    /// - Parameter lease: a claim still running after this long is taken to be abandoned (its
    ///   process died) and may be claimed again.
    /// - Throws: `idempotencyKeyReused` when the key was used with another fingerprint;
    ///   `requestInProgress` while the first request runs.
    func claim(scope: String, key: String, fingerprint: String, at now: Date, retention: TimeInterval,
               lease: TimeInterval) throws(KeyCatError) -> IdempotencyClaim
    /// Stores the first answer.
    func complete(scope: String, key: String, response: Data, at now: Date) throws(KeyCatError)
    /// Forgets a claim whose request failed, so a retry runs it again.
    func release(scope: String, key: String) throws(KeyCatError)
}

/// Runs requests at most once per idempotency key and replays their first answer.
///
/// Only successful answers are stored: a request that failed releases its key, so the client's
/// retry runs again (a failure such as a gateway outage is worth retrying; one such as
/// out-of-stock simply fails again).
struct IdempotentRunner: Sendable {
    let store: any IdempotencyStore
    let clock: any WallClock
    var retention: TimeInterval = 24 * 60 * 60
    var lease: TimeInterval = 120

    func run<Answer: Codable & Sendable>(
        scope: String, key: String?, fingerprint: String, _ body: () async throws(KeyCatError) -> Answer
    ) async throws(KeyCatError) -> Answer {
        guard let key else { return try await body() }
        guard !key.isEmpty, key.count <= 255 else {
            throw KeyCatError.validation("idempotency_key", "an idempotency key has 1–255 characters")
        }
        switch try store.claim(scope: scope, key: key, fingerprint: fingerprint, at: clock.now(),
                               retention: retention, lease: lease) {
        case let .replay(data):
            do { return try JSONDecoder().decode(Answer.self, from: data) } catch {
                throw KeyCatError(.internalError, "a stored answer could not be read: \(error)")
            }
        case .claimed:
            let answer: Answer
            do { answer = try await body() } catch {
                try? store.release(scope: scope, key: key)
                throw error
            }
            let data: Data
            do { data = try JSONEncoder().encode(answer) } catch {
                throw KeyCatError(.internalError, "an answer could not be stored: \(error)")
            }
            try store.complete(scope: scope, key: key, response: data, at: clock.now())
            return answer
        }
    }
}
