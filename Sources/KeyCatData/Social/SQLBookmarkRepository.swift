import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Bookmarks in the `bookmarks` table, with `products.bookmark_count` moved in the same
/// transaction only when a row was really added or removed (``SQLToggleTable``, as follows do),
/// so the count always equals the rows, whatever the order of concurrent toggles.
package struct SQLBookmarkRepository<Database: SQLDatabase>: BookmarkRepository {
    private let database: Database
    private let toggles: SQLToggleTable<Database>

    package init(database: Database) {
        self.database = database
        toggles = SQLToggleTable(database: database, table: "bookmarks", user: "user_id", target: "product_id",
                                 counters: [.init(table: "products", column: "bookmark_count", owner: .target)])
    }

    package func add(_ product: ProductID, by user: UserID, at now: Date) async throws(KeyCatError) -> Bool {
        let dialect = Database.Connection.dialect
        return try await toggles.add(product, by: user, at: now, requiring: [
            // In the catalog: a listing out of it (its seller suspended) is not found, as its
            // page is, and a bookmark would show it whole in the buyer's list.
            .init(sql: "SELECT 1 FROM products WHERE id = ? AND deleted_at IS NULL AND listed = 1", arguments: [.integer(product.rawValue)],
                  unmet: .notFound("product", product)),
            // A seller's own bookmark would lift their listing in the ranking (bookmarks are a
            // signal), as a review of it would its rating: refused alike.
            .init(sql: "SELECT 1 FROM products WHERE id = ? AND seller_id <> ?",
                  arguments: [.integer(product.rawValue), .integer(user.rawValue)],
                  unmet: KeyCatError(.forbidden, "a seller cannot bookmark their own listing", context: ["product_id": "\(product)"])),
            // Not counted, so locked here: the account cannot be withdrawn before the commit.
            .init(sql: SocialRows.liveUserSQL(locking: .share, in: dialect), arguments: [.integer(user.rawValue)],
                  unmet: .notFound("user", user)),
        ])
    }

    package func remove(_ product: ProductID, by user: UserID) async throws(KeyCatError) -> Bool {
        try await toggles.remove(product, by: user)
    }

    package func contains(_ product: ProductID, by user: UserID) async throws(KeyCatError) -> Bool {
        try await toggles.contains(product, by: user)
    }

    package func list(user: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Bookmark] {
        let (sql, keyset) = Self.listSQL(after: position)
        return try await storage {
            try await database.read { connection in
                try connection.query(sql, [.integer(user.rawValue)] + keyset + [.int(limit)]) { row in
                    // The product's columns come first, so its decoder reads them where it expects.
                    Bookmark(id: row.int64(ProductRow.columnCount), product: try ProductRow.decode(row),
                             bookmarkedAt: StoredTime.date(row.int64(ProductRow.columnCount + 1)))
                }
            }
        }
    }

    /// The SQL of one page over `bookmarks_by_user` (parameters: the user, the keyset's, the
    /// limit) and the keyset's arguments.
    static func listSQL(after position: CursorPosition?) -> (String, [SQLValue]) {
        let keyset = SocialRows.keyset("bookmarks", after: position)
        let productColumns = ProductRow.columns.split(separator: ",")
            .map { "products." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
        return ("""
            SELECT \(productColumns), bookmarks.id, bookmarks.created_at
            FROM bookmarks JOIN products ON products.id = bookmarks.product_id
            WHERE bookmarks.user_id = ?\(keyset.condition)
            ORDER BY bookmarks.created_at DESC, bookmarks.id DESC LIMIT ?
            """, keyset.arguments)
    }
}
