import Foundation
import KeyCat

/// The JSON of one page of a keyset-paginated list: `{"items": [...], "next_cursor": "…" | null}`.
/// `next_cursor` is always present, `null` on the last page; a client passes it back as `next`.
public struct PageBody<Item: Encodable & Sendable>: Encodable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items, nextCursor = "next_cursor"
    }

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// The page with each item turned into its body.
    public init<Source>(_ page: Page<Source>, _ transform: (Source) -> Item) {
        self.init(items: page.items.map(transform), nextCursor: page.nextCursor)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        // Explicitly null on the last page: the contract has the key on every page.
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
