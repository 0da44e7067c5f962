/// One page of a keyset-paginated list (architecture §3).
///
/// Pass ``nextCursor`` back to get the following page; it is `nil` on the last page.
public struct Page<Item> {
    /// The items of this page, in the list's order.
    public var items: [Item]
    /// The opaque cursor of the next page, or `nil` when this page is the last.
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Sendable where Item: Sendable {}
extension Page: Equatable where Item: Equatable {}

/// How many items a page holds: 1–100, 20 when not given.
public struct PageLimit: Sendable, Hashable {
    public static let `default` = PageLimit(unchecked: 20)
    public static let range = 1...100

    /// The number of items.
    public let value: Int

    /// - Throws: a validation error on `limit` outside 1–100.
    public init(_ value: Int) throws(KeyCatError) {
        guard Self.range.contains(value) else {
            throw KeyCatError.validation("limit", "limit must be between 1 and 100, got \(value)")
        }
        self.value = value
    }

    private init(unchecked value: Int) { self.value = value }
}
