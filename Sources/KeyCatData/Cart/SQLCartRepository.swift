import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Carts in the `cart_lines` table, one row per (buyer, product).
package struct SQLCartRepository<Database: SQLDatabase>: CartRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func entries(of userID: UserID) async throws(KeyCatError) -> [CartEntry] {
        try await storage {
            try await database.read {
                try $0.query("SELECT product_id, quantity, added_at FROM cart_lines WHERE user_id = ? ORDER BY added_at, product_id",
                             [.integer(userID.rawValue)]) { row in
                    CartEntry(productID: ProductID(row.int64(0)), quantity: row.int(1), addedAt: StoredTime.date(row.int64(2)))
                }
            }
        }
    }

    // Specialised for each store in this module, as the product reads are: the cart read is a hot path.
    @_specialize(where Database == SQLiteDatabase)
    @_specialize(where Database == PostgresDatabase)
    package func contents(of userID: UserID) async throws(KeyCatError) -> [(entry: CartEntry, product: CartProductFacts?)] {
        try await storage {
            try await database.readStatement { connection in
                var lines: [(entry: CartEntry, product: CartProductFacts?)] = []
                lines.reserveCapacity(16)
                try connection.forEach("""
                    SELECT c.product_id, c.quantity, c.added_at, p.title, p.regular_price, p.price,
                           p.discount_ends_at, p.delivery_fee, p.stock, p.listed = 1 AND p.deleted_at IS NULL, p.seller_id
                    FROM cart_lines c JOIN products p ON p.id = c.product_id
                    WHERE c.user_id = ? ORDER BY c.added_at, c.product_id
                    """, [.integer(userID.rawValue)]) { row in
                    let entry = CartEntry(productID: ProductID(row.int64(0)), quantity: row.int(1), addedAt: StoredTime.date(row.int64(2)))
                    let product = CartProductFacts(
                        sellerID: UserID(row.int64(10)), title: row.string(3),
                        pricing: Pricing(regularPrice: Money(won: row.int64(4)), salePrice: Money(won: row.int64(5)),
                                         discountEndsAt: row.optionalInt64(6).map(StoredTime.date)),
                        deliveryFee: Money(won: row.int64(7)), stock: row.int(8), isLive: row.bool(9))
                    lines.append((entry, product))
                }
                return lines
            }
        }
    }

    package func add(_ productID: ProductID, quantity: Int, cap: Int, for userID: UserID, maximumLines: Int, at now: Date) async throws(KeyCatError) -> CartEntry {
        try await upsert(productID, for: userID, maximumLines: maximumLines, at: now,
                         update: { "quantity = \($0.smaller("cart_lines.quantity + ?", "\(cap)"))" }, value: min(quantity, cap))
    }

    package func set(_ productID: ProductID, quantity: Int, for userID: UserID, maximumLines: Int, at now: Date) async throws(KeyCatError) -> CartEntry {
        try await upsert(productID, for: userID, maximumLines: maximumLines, at: now, update: { _ in "quantity = ?" }, value: quantity)
    }

    /// Sets a line with `update` (`quantity = …`, one `?` bound to `value`), or adds it with
    /// `value` when the buyer has room for another line.
    ///
    /// `READ COMMITTED`: changing a line touches that line's row alone, one statement; a new
    /// line first locks its buyer's row, so two adds of one buyer take turns at the count of
    /// lines, and `ON CONFLICT` folds in the same line added meanwhile. Different buyers never
    /// wait for one another, nor run again for each other: as `SERIALIZABLE`, Postgres failed
    /// their writes for sharing a page of the table (found by `scripts/bench-http`'s mixed run,
    /// 16 buyers on one product).
    private func upsert(_ productID: ProductID, for userID: UserID, maximumLines: Int, at now: Date, update: (SQLDialect) -> String, value: Int) async throws(KeyCatError) -> CartEntry {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                let key: [SQLValue] = [.integer(userID.rawValue), .integer(productID.rawValue)]
                let set = update(connection.dialect)
                let returning = " RETURNING product_id, quantity, added_at"
                let entry = { (row: Database.Connection.Row) in
                    CartEntry(productID: ProductID(row.int64(0)), quantity: row.int(1), addedAt: StoredTime.date(row.int64(2)))
                }
                if let changed = try connection.queryOne(
                    "UPDATE cart_lines SET \(set) WHERE user_id = ? AND product_id = ?" + returning, [.int(value)] + key, entry) {
                    return changed
                }
                _ = try connection.queryOne("SELECT id FROM users WHERE id = ?\(connection.dialect.locking(.update))", [key[0]]) { $0.int64(0) }
                let lines = try connection.queryOne("SELECT count(*) FROM cart_lines WHERE user_id = ?", [key[0]]) { $0.int(0) } ?? 0
                guard lines < maximumLines else {
                    throw KeyCatError.validation("cart", "a cart holds at most \(maximumLines) lines")
                }
                return try connection.queryOne("""
                    INSERT INTO cart_lines (user_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, product_id) DO UPDATE SET \(set)
                    """ + returning, key + [.int(value), StoredTime.value(now), .int(value)], entry)
                    ?? CartEntry(productID: productID, quantity: value, addedAt: now)
            }
        }
    }

    @discardableResult
    package func remove(_ productID: ProductID, for userID: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write {
                try $0.run("DELETE FROM cart_lines WHERE user_id = ? AND product_id = ?",
                           [.integer(userID.rawValue), .integer(productID.rawValue)]) == 1
            }
        }
    }

    package func clear(_ userID: UserID) async throws(KeyCatError) {
        try await storage {
            try await database.write { try $0.run("DELETE FROM cart_lines WHERE user_id = ?", [.integer(userID.rawValue)]) }
        }
    }
}
