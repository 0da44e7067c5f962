/// Where a keyset-paginated walk stopped: the last row's sort key and id (DESIGN §3).
public struct CursorPosition: Sendable, Hashable {
    /// The sort key of the last row returned, as text (empty when the list sorts by id only).
    public var sortKey: String
    /// The id of the last row returned, the tie-breaker.
    public var id: Int64

    public init(sortKey: String = "", id: Int64) {
        self.sortKey = sortKey
        self.id = id
    }
}

/// Turns positions into opaque, tamper-evident cursors and back. Implementation:
/// `HMACPageCursorCodec`.
public protocol PageCursorCodec: Sendable {
    /// The cursor for `position` in the list described by `query` (its filters and sort).
    func encode(_ position: CursorPosition, query: String) -> String
    /// The position in `cursor`.
    /// - Throws: ``KeyCatError/Code/invalidCursor`` when the cursor was tampered with or made
    ///   for another `query`.
    func decode(_ cursor: String, query: String) throws(KeyCatError) -> CursorPosition
}
