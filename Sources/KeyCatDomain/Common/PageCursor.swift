/// Where a keyset-paginated walk stopped: the last row's sort key and id (architecture §3).
public struct CursorPosition: Sendable, Hashable {
    /// The sort key of the last row returned: a time in milliseconds, a price, a score… (0 when
    /// the list sorts by id only).
    public var sortKey: Int64
    /// The id of the last row returned, the tie-breaker.
    public var id: Int64

    public init(sortKey: Int64 = 0, id: Int64) {
        self.sortKey = sortKey
        self.id = id
    }
}

/// Turns positions into opaque, tamper-evident cursors and back. A cursor is bound to the list
/// it came from (its `query`: the list's name, sort and filters), so one that was tampered with,
/// or reused with other filters or another sort, is rejected. Implementation:
/// `HMACPageCursorCodec`.
public protocol PageCursorCodec: Sendable {
    /// The cursor for `position` in the list described by `query`.
    func encode(_ position: CursorPosition, query: String) -> String

    /// The position in `cursor`.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCursor`` for anything that is not a cursor this codec
    ///   made for `query`.
    func decode(_ cursor: String, query: String) throws(KeyCatError) -> CursorPosition
}
