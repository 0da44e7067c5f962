import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Bookmarks in the `bookmarks` table, with `products.bookmark_count` moved in the same
/// transaction only when a row was really added or removed, so the count always equals the
/// rows, whatever the order of concurrent toggles.
package struct SQLBookmarkRepository<Database: SQLDatabase>: BookmarkRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func add(user: UserID, product: ProductID, at now: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                guard try SocialRows.isLiveProduct(product, on: connection) else {
                    throw KeyCatError.notFound("product", product)
                }
                guard try SocialRows.liveNick(user, on: connection) != nil else {
                    throw KeyCatError.notFound("user", user)
                }
                let added = try connection.run(
                    """
                    INSERT INTO bookmarks (user_id, product_id, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, product_id) DO NOTHING
                    """,
                    [.integer(user.rawValue), .integer(product.rawValue), StoredTime.value(now)]) == 1
                if added { try Self.adjustCount(of: product, by: 1, on: connection) }
                return added
            }
        }
    }

    package func remove(user: UserID, product: ProductID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let removed = try connection.run(
                    "DELETE FROM bookmarks WHERE user_id = ? AND product_id = ?",
                    [.integer(user.rawValue), .integer(product.rawValue)]) == 1
                if removed { try Self.adjustCount(of: product, by: -1, on: connection) }
                return removed
            }
        }
    }

    package func contains(user: UserID, product: ProductID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT 1 FROM bookmarks WHERE user_id = ? AND product_id = ?",
                    [.integer(user.rawValue), .integer(product.rawValue)]) { _ in true } ?? false
            }
        }
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

    private static func adjustCount(of product: ProductID, by delta: Int, on connection: some SQLConnection) throws {
        try connection.run("UPDATE products SET bookmark_count = bookmark_count + ? WHERE id = ?",
                           [.int(delta), .integer(product.rawValue)])
    }
}
