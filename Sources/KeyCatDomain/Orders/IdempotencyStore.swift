import Foundation

/// What claiming an idempotency key found.
public enum IdempotencyClaim: Sendable, Hashable {
    /// The key is new (or expired, or abandoned): run the request, then complete or release it.
    case claimed
    /// The request already ran: here is its first answer.
    case replay(Data)
}

/// Where idempotency keys and first answers are kept (architecture §6: 24 hours, replay, conflict on
/// other input). Implementations: `SQLIdempotencyStore` on SQLite and Postgres,
/// `InMemoryIdempotencyStore` for tests.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` in `scope` for a request with `fingerprint`.
    ///
    /// - Parameter lease: a claim still running after this long is taken to be abandoned (its
    ///   process died) and may be claimed again.
    /// - Throws: `idempotencyKeyReused` when the key was used with another fingerprint;
    ///   `requestInProgress` while the first request runs.
    func claim(scope: String, key: String, fingerprint: String, at now: Date, retention: TimeInterval,
               lease: TimeInterval) async throws(KeyCatError) -> IdempotencyClaim
    /// Stores the first answer of the claim made at `claimedAt` — and nothing if that claim was
    /// abandoned and taken over since (the new claimant's answer is the one that counts).
    func complete(scope: String, key: String, response: Data, claimedAt: Date) async throws(KeyCatError)
    /// Deletes keys whose retention ended by `now`, oldest first, at most `limit` of them, and
    /// returns how many. Kept off the claim path: reconciliation calls it in bounded batches.
    func sweepExpired(before now: Date, limit: Int) async throws(KeyCatError) -> Int
    /// Forgets the claim made at `claimedAt`, whose request failed without doing anything, so a
    /// retry runs again. A claim taken over since is left alone.
    func release(scope: String, key: String, claimedAt: Date) async throws(KeyCatError)
}

/// Runs requests at most once per idempotency key and replays their first answer.
///
/// A failed request releases its key, so the client's retry runs again. A request that may have
/// acted before failing (a refund the PG did not answer) must make that retry safe itself: a
/// refund keeps the key on its own durable row, so the retry finds it and settles it instead of
/// refunding again (``OrderService/refund(_:_:by:)``).
struct IdempotentRunner: Sendable {
    let store: any IdempotencyStore
    /// Where a replay whose stored record this build cannot read finds its order as it is now.
    let orders: any OrderRepository
    let clock: any WallClock
    var retention: TimeInterval = 24 * 60 * 60
    var lease: TimeInterval = 120

    /// The field a bad key is reported under: the header clients send it in, whichever way it came.
    static let keyField = "Idempotency-Key"
    /// How long a key may be, in UTF-8 bytes.
    static let keyBytes = 1...255

    /// The prefix of the keys KeyCat gives its own requests (an approved return's refund is
    /// `keycat:return-<id>`), which a client's key may not start with.
    static let reservedPrefix = "keycat:"

    /// The one check of a client's key (KeyCatAPI passes the header on unchecked): 1–255 bytes,
    /// not starting with ``reservedPrefix``. Bytes, not characters: a key is an opaque token,
    /// stored and compared as bytes, and a character may be any number of them (100 emoji are
    /// 400 bytes).
    static func checkKey(_ key: String) throws(KeyCatError) {
        guard keyBytes.contains(key.utf8.count) else {
            throw KeyCatError.validation(keyField, "an Idempotency-Key has 1–255 bytes; this one has \(key.utf8.count)")
        }
        guard !key.hasPrefix(reservedPrefix) else {
            throw KeyCatError.validation(keyField, "an Idempotency-Key may not start with \"\(reservedPrefix)\": KeyCat keys its own requests so")
        }
    }

    /// Runs `body` once per `key` in `scope`, and answers a repeat with the first answer (an
    /// ``IdempotentReplay`` record). Without a key, `body` just runs.
    ///
    /// - Throws: `validation` (field `Idempotency-Key`) for a key outside 1–255 bytes;
    ///   `idempotencyKeyReused` for the key with another `fingerprint`; `requestInProgress`
    ///   while the first request runs; what `body` throws (the key is then released).
    func run(
        scope: String, key: String?, fingerprint: String,
        _ body: () async throws(KeyCatError) -> Order
    ) async throws(KeyCatError) -> Order {
        guard let key else { return try await body() }
        try Self.checkKey(key)
        let claimedAt = clock.now()
        switch try await store.claim(scope: scope, key: key, fingerprint: fingerprint, at: claimedAt,
                                     retention: retention, lease: lease) {
        case let .replay(data):
            switch IdempotentReplay.read(data) {
            case let .answer(order):
                return order
            case let .reload(id):
                guard let order = try await orders.find(id) else {
                    throw KeyCatError(.internalError, "the stored answer names order \(id), which is gone")
                }
                return order
            case let .failure(error):
                throw error
            case .unreadable:
                throw KeyCatError(.internalError, "a stored answer could not be read")
            }
        case .claimed:
            let answer: Order
            do { answer = try await body() } catch {
                try? await store.release(scope: scope, key: key, claimedAt: claimedAt)
                throw error
            }
            try await store.complete(scope: scope, key: key, response: try IdempotentReplay(answer).encoded(), claimedAt: claimedAt)
            return answer
        }
    }
}
