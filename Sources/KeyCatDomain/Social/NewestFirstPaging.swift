import Foundation

/// The keyset paging the social lists share (architecture §3): newest first by `(createdAt, id)`,
/// with the cursor bound to the list's name and filter (e.g. `"reviews|product=12"`), so a
/// cursor from one list is `invalidCursor` on any other.
struct NewestFirstPaging: Sendable {
    let cursors: any PageCursorCodec

    /// The position in `cursor`, or nil to start at the top.
    func position(_ cursor: String?, query: String) throws(KeyCatError) -> CursorPosition? {
        try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
    }

    /// Cuts `rows` (fetched with `limit + 1`) to a page, with a cursor when there is more.
    func page<Item>(
        _ rows: [Item], limit: PageLimit, query: String, time: (Item) -> Date, id: (Item) -> Int64
    ) -> Page<Item> {
        guard rows.count > limit.value else { return Page(items: rows, nextCursor: nil) }
        let items = Array(rows.prefix(limit.value))
        let last = items[items.count - 1]
        let position = CursorPosition(sortKey: time(last).millisecondsSince1970, id: id(last))
        return Page(items: items, nextCursor: cursors.encode(position, query: query))
    }

}
