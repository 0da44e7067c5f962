/// A listing found by a search, with the key of its place in the results' order: a cursor
/// resumes after it.
public struct SearchHit: Sendable, Hashable {
    public var product: Product
    public var key: Int64

    public init(product: Product, key: Int64) {
        self.product = product
        self.key = key
    }
}

/// A page of search hits as a store read it (``ProductRepository/search(_:sort:after:limit:)``).
public struct SearchPage: Sendable, Hashable {
    public var hits: [SearchHit]
    /// Where a walk stopped that examined as many listings as a page may before the page
    /// filled: the next page resumes after it, so a short page (even an empty one) may have a
    /// next cursor. Nil when the page filled or the matches ran out.
    public var walkedTo: CursorPosition?

    public init(hits: [SearchHit], walkedTo: CursorPosition? = nil) {
        self.hits = hits
        self.walkedTo = walkedTo
    }
}
