/// Follows (architecture §2): a user follows another to see their listings. Following and
/// unfollowing are idempotent, rate-limited per user (``PerUserRateLimiter``), and keep both
/// users' counts in the same transaction.
public struct FollowService: Sendable {
    private let follows: any FollowRepository
    private let toggle: Toggle<UserID>
    private let paging: NewestFirstPaging

    public init(follows: any FollowRepository, limiter: PerUserRateLimiter, cursors: any PageCursorCodec,
                clock: any WallClock) {
        self.follows = follows
        self.toggle = Toggle(follows, limiter: limiter, clock: clock)
        self.paging = NewestFirstPaging(cursors: cursors)
    }

    /// The caller follows `userID`; doing it twice changes nothing.
    ///
    /// - Returns: whether a follow was added.
    /// - Throws: ``KeyCatError/Code/forbidden`` for oneself (the id is well formed; the caller
    ///   may not follow that user);
    ///   ``KeyCatError/Code/rateLimited`` over the toggle limit; ``KeyCatError/Code/notFound``
    ///   when `userID` (or the caller) is missing or withdrawn.
    @discardableResult
    public func follow(_ userID: UserID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try rejectSelf(userID, principal)
        return try await toggle.add(userID, by: principal.userID)
    }

    /// The caller stops following `userID`; unfollowing someone not followed changes nothing.
    /// Works for withdrawn accounts too.
    ///
    /// - Returns: whether a follow was removed.
    /// - Throws: ``KeyCatError/Code/forbidden`` for oneself; ``KeyCatError/Code/rateLimited``
    ///   over the toggle limit.
    @discardableResult
    public func unfollow(_ userID: UserID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try rejectSelf(userID, principal)
        return try await toggle.remove(userID, by: principal.userID)
    }

    /// Whether the caller follows `userID`.
    public func isFollowing(_ userID: UserID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try await follows.contains(userID, by: principal.userID)
    }

    /// `userID`'s follower and following counts, read from the user's row (no `COUNT(*)`).
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when there is no such account.
    public func counts(of userID: UserID) async throws(KeyCatError) -> FollowCounts {
        guard let counts = try await follows.counts(of: userID) else { throw KeyCatError.notFound("user", userID) }
        return counts
    }

    /// A page of who follows `userID`, newest first.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCursor`` for a cursor from another list.
    public func followers(of userID: UserID, limit: PageLimit = .default, cursor: String? = nil)
        async throws(KeyCatError) -> Page<FollowEntry>
    {
        try await list(.followers, of: userID, limit: limit, cursor: cursor)
    }

    /// A page of whom `userID` follows, newest first.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCursor`` for a cursor from another list.
    public func following(of userID: UserID, limit: PageLimit = .default, cursor: String? = nil)
        async throws(KeyCatError) -> Page<FollowEntry>
    {
        try await list(.following, of: userID, limit: limit, cursor: cursor)
    }

    private func list(_ direction: FollowDirection, of userID: UserID, limit: PageLimit, cursor: String?)
        async throws(KeyCatError) -> Page<FollowEntry>
    {
        let query = "follows|\(direction.rawValue)|user=\(userID)"
        let position = try paging.position(cursor, query: query)
        let rows = try await follows.list(direction, of: userID, after: position, limit: limit.value + 1)
        return paging.page(rows, limit: limit, query: query, time: \.followedAt, id: \.id)
    }

    private func rejectSelf(_ userID: UserID, _ principal: Principal) throws(KeyCatError) {
        guard userID != principal.userID else {
            throw KeyCatError(.forbidden, "you cannot follow yourself")
        }
    }
}
