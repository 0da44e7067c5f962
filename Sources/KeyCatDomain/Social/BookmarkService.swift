/// Bookmarks (architecture §2): a user keeps products to come back to. Adding and removing are
/// idempotent, rate-limited per user (``PerUserRateLimiter``), and keep the product's
/// `bookmarkCount` (which drives the `popular` sort) in the same transaction.
public struct BookmarkService: Sendable {
    private let bookmarks: any BookmarkRepository
    private let toggle: Toggle<ProductID>
    private let paging: NewestFirstPaging

    public init(bookmarks: any BookmarkRepository, limiter: PerUserRateLimiter, cursors: any PageCursorCodec,
                clock: any WallClock) {
        self.bookmarks = bookmarks
        self.toggle = Toggle(bookmarks, limiter: limiter, clock: clock)
        self.paging = NewestFirstPaging(cursors: cursors)
    }

    /// Bookmarks `productID` for the caller; doing it twice changes nothing.
    ///
    /// - Returns: whether a bookmark was added (false when it already existed).
    /// - Throws: ``KeyCatError/Code/rateLimited`` over the toggle limit;
    ///   ``KeyCatError/Code/notFound`` when the product is missing or deleted, or the caller's
    ///   account is withdrawn.
    @discardableResult
    public func add(_ productID: ProductID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try await toggle.add(productID, by: principal.userID)
    }

    /// Removes the caller's bookmark of `productID`; removing one that is not there changes
    /// nothing. Works for deleted products too, so they can be cleared from the list.
    ///
    /// - Returns: whether a bookmark was removed.
    /// - Throws: ``KeyCatError/Code/rateLimited`` over the toggle limit.
    @discardableResult
    public func remove(_ productID: ProductID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try await toggle.remove(productID, by: principal.userID)
    }

    /// Whether the caller bookmarked `productID`.
    public func isBookmarked(_ productID: ProductID, by principal: Principal) async throws(KeyCatError) -> Bool {
        try await bookmarks.contains(productID, by: principal.userID)
    }

    /// A page of the caller's bookmarks, newest first; deleted products are marked
    /// (``Bookmark/isDeleted``).
    ///
    /// - Throws: ``KeyCatError/Code/invalidCursor`` for a cursor from another list or user.
    public func bookmarks(by principal: Principal, limit: PageLimit = .default, cursor: String? = nil)
        async throws(KeyCatError) -> Page<Bookmark>
    {
        let query = "bookmarks|user=\(principal.userID)"
        let position = try paging.position(cursor, query: query)
        let rows = try await bookmarks.list(user: principal.userID, after: position, limit: limit.value + 1)
        return paging.page(rows, limit: limit, query: query, time: \.bookmarkedAt, id: \.id)
    }
}
