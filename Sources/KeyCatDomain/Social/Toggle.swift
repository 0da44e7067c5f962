import Foundation

/// Where a relation one user sets and clears is kept: a bookmark (user → product), a follow
/// (follower → followee). A pair is there at most once, and the counts the relation keeps move
/// in the same transaction, only when a row really came or went.
public protocol ToggleRepository<Target>: Sendable {
    /// What a user sets the relation on: the product bookmarked, the user followed.
    associatedtype Target: EntityID

    /// Adds the relation from `user` to `target` unless it exists, with its counts. Returns
    /// whether it was added.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when `target` or `user` may not take part, as the
    ///   relation says (``BookmarkRepository``, ``FollowRepository``).
    func add(_ target: Target, by user: UserID, at now: Date) async throws(KeyCatError) -> Bool

    /// Removes it if it exists, with its counts. Returns whether it was removed.
    func remove(_ target: Target, by user: UserID) async throws(KeyCatError) -> Bool

    /// Whether `user` has the relation to `target`.
    func contains(_ target: Target, by user: UserID) async throws(KeyCatError) -> Bool
}

/// What bookmarking and following share: adding and removing are idempotent, and each first
/// takes a token from the user's toggle budget (one budget, whatever they toggle), so a refused
/// toggle changes nothing.
struct Toggle<Target: EntityID>: Sendable {
    private let relation: any ToggleRepository<Target>
    private let limiter: PerUserRateLimiter
    private let clock: any WallClock

    init(_ relation: some ToggleRepository<Target>, limiter: PerUserRateLimiter, clock: any WallClock) {
        self.relation = relation
        self.limiter = limiter
        self.clock = clock
    }

    /// Adds `user`'s relation to `target`; returns whether it was added.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` over the toggle limit; what
    ///   ``ToggleRepository/add(_:by:at:)`` throws.
    func add(_ target: Target, by user: UserID) async throws(KeyCatError) -> Bool {
        try await limiter.take(for: user)
        return try await relation.add(target, by: user, at: clock.now())
    }

    /// Removes `user`'s relation to `target`; returns whether it was removed.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` over the toggle limit.
    func remove(_ target: Target, by user: UserID) async throws(KeyCatError) -> Bool {
        try await limiter.take(for: user)
        return try await relation.remove(target, by: user)
    }
}
