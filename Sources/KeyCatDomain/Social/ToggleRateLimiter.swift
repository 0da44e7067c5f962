import Foundation
import Synchronization

/// How fast one user may toggle bookmarks and follows: a token bucket that holds up to
/// ``burst`` tokens and refills at ``perSecond`` tokens a second. Each toggle takes a token.
public struct RateLimit: Sendable, Hashable {
    /// Tokens added per second (may be fractional: 0.5 is one every two seconds).
    public var perSecond: Double
    /// The most tokens a bucket holds: how many toggles may come at once after a quiet spell.
    public var burst: Int

    /// - Throws: ``KeyCatError/Code/validation`` unless `perSecond > 0` and `burst ≥ 1`.
    public init(perSecond: Double, burst: Int) throws(KeyCatError) {
        guard perSecond > 0, perSecond.isFinite else {
            throw KeyCatError.validation("rate", "a rate limit refills a positive number of tokens per second")
        }
        guard burst >= 1 else { throw KeyCatError.validation("burst", "a rate limit's burst is at least 1") }
        self.perSecond = perSecond
        self.burst = burst
    }

    /// Two toggles a second with bursts of 30: generous for people, tight for scripts.
    public static let togglesDefault = try! RateLimit(perSecond: 2, burst: 30)
}

/// A per-user token bucket limiter for toggles (bookmark, unbookmark, follow, unfollow).
///
/// It is **per process**: its buckets live in memory, so several server processes over one
/// database each allow a user the full rate. It reads the time from the injected clock, so
/// tests advance a ``TestClock`` instead of sleeping.
///
/// Concurrency in one sentence: every bucket lives in one `Mutex`-guarded dictionary, so a take
/// is an atomic read-refill-take.
public final class ToggleRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    private let limit: RateLimit?
    private let clock: any WallClock
    private let buckets = Mutex<[UserID: Bucket]>([:])
    /// Buckets are pruned when the dictionary grows past this; a full bucket carries no state.
    private static let pruneThreshold = 10_000

    /// - Parameter limit: nil turns limiting off.
    public init(limit: RateLimit?, clock: any WallClock) {
        self.limit = limit
        self.clock = clock
    }

    /// Takes one token from `user`'s bucket.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) when the bucket is empty, with
    ///   `context["retry_after"]` the whole seconds until a token is back (at least 1).
    public func take(for user: UserID) throws(KeyCatError) {
        guard let limit else { return }
        let now = clock.now()
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[user] ?? Bucket(tokens: Double(limit.burst), updatedAt: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updatedAt))
            bucket.tokens = min(Double(limit.burst), bucket.tokens + elapsed * limit.perSecond)
            bucket.updatedAt = now
            defer {
                buckets[user] = bucket
                if buckets.count > Self.pruneThreshold { Self.prune(&buckets, limit: limit, now: now) }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / limit.perSecond }
            bucket.tokens -= 1
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw KeyCatError(.rateLimited, "too many bookmark and follow changes; try again in \(seconds) s",
                              context: ["retry_after": String(seconds)])
        }
    }

    /// Drops buckets that would be full by now: forgetting them changes nothing.
    private static func prune(_ buckets: inout [UserID: Bucket], limit: RateLimit, now: Date) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + max(0, now.timeIntervalSince(bucket.updatedAt)) * limit.perSecond < Double(limit.burst)
        }
    }
}
