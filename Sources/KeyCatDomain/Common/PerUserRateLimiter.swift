import Foundation
import Synchronization

/// How fast one user may do one kind of thing (toggle bookmarks and follows, check out): a
/// token bucket that holds up to ``burst`` tokens and refills at ``perSecond`` tokens a second.
/// Each action takes a token.
public struct RateLimit: Sendable, Hashable {
    /// Tokens added per second (may be fractional: 0.5 is one every two seconds).
    public var perSecond: Double
    /// The most tokens a bucket holds: how many actions may come at once after a quiet spell.
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
    /// One buyer's confirmations that ask the PG: 30 at once, then one a second. A confirm only
    /// asks the PG once per payment in a buyer's flow; a loop of them would spend the shop's
    /// own budget of PG calls, which every buyer's payment shares.
    public static let confirmationsDefault = try! RateLimit(perSecond: 1, burst: 30)
    /// One seller's image uploads: 500 at once, then 500 a day. Images are kept for as long as
    /// the shop is (a backup copies the rows, then the images they name), so this bounds what one
    /// seller can add to the shop's disk: 1 GB a day of 2 MB images, where a loop of listings
    /// created with five new images and deleted was 10 MB a request without end.
    public static let imageUploadsDefault = try! RateLimit(perSecond: 500.0 / 86_400, burst: 500)
}

/// One user's token bucket: how many tokens it held at `updatedAt`. The arithmetic lives here so
/// the in-process limiter and a shared store (``TokenBucketStore``) take tokens alike.
public struct TokenBucket: Sendable, Hashable {
    public var tokens: Double
    public var updatedAt: Date

    public init(tokens: Double, updatedAt: Date) {
        self.tokens = tokens
        self.updatedAt = updatedAt
    }

    /// A full bucket at `now`.
    public static func full(_ limit: RateLimit, at now: Date) -> TokenBucket {
        TokenBucket(tokens: Double(limit.burst), updatedAt: now)
    }

    /// Refills the bucket up to `now` and takes `count` tokens, all or none.
    ///
    /// - Returns: nil when they were taken, else the seconds until that many are back.
    public mutating func take(_ limit: RateLimit, count: Int = 1, at now: Date) -> Double? {
        let elapsed = max(0, now.timeIntervalSince(updatedAt))
        tokens = min(Double(limit.burst), tokens + elapsed * limit.perSecond)
        updatedAt = now
        let needed = Double(count)
        guard tokens >= needed else { return (needed - tokens) / limit.perSecond }
        tokens -= needed
        return nil
    }

    /// Whether the bucket would be full by `now`: forgetting it changes nothing.
    public func isFull(_ limit: RateLimit, at now: Date) -> Bool {
        tokens + max(0, now.timeIntervalSince(updatedAt)) * limit.perSecond >= Double(limit.burst)
    }
}

/// Where a ``PerUserRateLimiter``'s buckets live when every server must share them (a database,
/// as `SQLTokenBucketStore` keeps the toggles' and the image uploads'): a take reads, refills and writes one user's bucket
/// atomically.
public protocol TokenBucketStore: Sendable {
    /// Takes `count` tokens from `user`'s bucket, all or none (a full one when it has none yet).
    ///
    /// - Returns: nil when they were taken, else the seconds until that many are back.
    func take(_ count: Int, for user: UserID, limit: RateLimit, at now: Date) async throws(KeyCatError) -> Double?
}

/// A rate limiter keyed by user: one ``TokenBucket`` per user, refilled at one ``RateLimit``.
/// KeyCat keeps one for the toggles (bookmark, unbookmark, follow, unfollow: one budget per user,
/// whatever they toggle) and ``CheckoutService`` one for checkouts.
///
/// By default it is **per process**: its buckets live in memory, so several server processes
/// over one database each allow a user the full rate. Given a ``TokenBucketStore`` (KeyCat
/// uses the database's when it runs on Postgres, where servers share one database) every server
/// takes from the same bucket, at the price of one small write transaction per take. It reads
/// the time from the injected clock, so tests advance a ``TestClock`` instead of sleeping.
///
/// Concurrency in one sentence: every in-process bucket lives in one `Mutex`-guarded
/// dictionary, so a take is an atomic read-refill-take; a shared store does the same in one
/// transaction.
public final class PerUserRateLimiter: Sendable {
    private let limit: RateLimit?
    private let clock: any WallClock
    private let shared: (any TokenBucketStore)?
    /// What is limited, for the refusal's message ("bookmark and follow changes", "checkouts").
    private let what: String
    private let buckets = Mutex<[UserID: TokenBucket]>([:])
    /// Buckets are pruned when the dictionary grows past this; a full bucket carries no state.
    private static let pruneThreshold = 10_000

    /// - Parameters:
    ///   - limit: nil turns limiting off.
    ///   - shared: where the buckets live when servers must share them; nil keeps them in this
    ///     process.
    ///   - what: what is limited, as the refusal names it.
    public init(limit: RateLimit?, clock: any WallClock, shared: (any TokenBucketStore)? = nil,
                what: String = "bookmark and follow changes") {
        self.limit = limit
        self.clock = clock
        self.shared = shared
        self.what = what
    }

    /// Takes `count` tokens from `user`'s bucket, all or none: one write a take on a shared store,
    /// whatever the count.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) when the bucket holds fewer, with
    ///   `context["retry_after"]` the whole seconds until they are back (at least 1).
    public func take(_ count: Int = 1, for user: UserID) async throws(KeyCatError) {
        guard let limit else { return }
        let now = clock.now()
        let wait: Double?
        if let shared {
            wait = try await shared.take(count, for: user, limit: limit, at: now)
        } else {
            wait = buckets.withLock { buckets in
                var bucket = buckets[user] ?? .full(limit, at: now)
                defer {
                    buckets[user] = bucket
                    if buckets.count > Self.pruneThreshold {
                        buckets = buckets.filter { !$0.value.isFull(limit, at: now) }
                    }
                }
                return bucket.take(limit, count: count, at: now)
            }
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw KeyCatError(.rateLimited, "too many \(what); try again in \(seconds) s",
                              context: ["retry_after": String(seconds)])
        }
    }
}
