import CSQLite

/// A product row as the baseline decodes it: every column the library reads, into plain fields.
struct RawProduct {
    var id, sellerID: Int64
    var kind, category, title, content: String
    var regularPrice, price, couponPrice: Int64
    var discountEndsAt: Int64?
    var deliveryFee: Int64
    var deliverySchedule: String
    var stock: Int64
    var images: String
    var input, connection, pcb, switchType, layout, keycapProfile: String?
    var backlight: Int64?
    var ratingCount, ratingSum, bookmarkCount, version, createdAt, updatedAt: Int64
    var deletedAt: Int64?
}

/// The catalog reads a baseline makes, on either store.
protocol RawCatalogReads {
    /// The SQL of a page, built once per sort.
    func pageSQL(column: String, ascending: Bool) -> (top: String, ties: String, rest: String)
    /// A page, from the top or after `position` (sort key, id).
    func page(_ sql: (top: String, ties: String, rest: String), after position: (Int64, Int64)?, limit: Int) throws -> [RawProduct]
    func product(_ id: Int64) throws -> RawProduct?
    /// The (sort key, id) of the row at `offset` in a sort, to start deep pages from.
    func position(column: String, ascending: Bool, offset: Int) throws -> (Int64, Int64)?
}

/// The catalog reads, hand-written against the C API.
struct RawCatalog: RawCatalogReads {
    let database: RawDatabase

    static let columns = """
        id, seller_id, kind, category, title, content, regular_price, price, coupon_price, \
        discount_ends_at, delivery_fee, delivery_schedule, stock, images, spec_input, \
        spec_connection, spec_pcb, spec_switch_type, spec_layout, spec_keycap_profile, \
        spec_backlight, rating_count, rating_sum, bookmark_count, version, created_at, updated_at, \
        deleted_at
        """

    /// The SQL of a page: from the top, or after a position in two index seeks (rows sharing
    /// the position's key beyond its id, then rows beyond its key), as KeyCat reads it.
    static func pageSQL(column: String, ascending: Bool) -> (top: String, ties: String, rest: String) {
        let direction = ascending ? "ASC" : "DESC"
        let beyond = ascending ? ">" : "<"
        let select = "SELECT \(columns) FROM products WHERE listed = 1"
        return ("\(select) ORDER BY \(column) \(direction), id \(direction) LIMIT ?",
                "\(select) AND \(column) = ? AND id \(beyond) ? ORDER BY id \(direction) LIMIT ?",
                "\(select) AND \(column) \(beyond) ? ORDER BY \(column) \(direction), id \(direction) LIMIT ?")
    }

    func pageSQL(column: String, ascending: Bool) -> (top: String, ties: String, rest: String) {
        Self.pageSQL(column: column, ascending: ascending)
    }

    /// A page, with `sql` built once by ``pageSQL(column:ascending:)``.
    func page(_ sql: (top: String, ties: String, rest: String), after position: (Int64, Int64)?, limit: Int) throws -> [RawProduct] {
        var rows: [RawProduct] = []
        rows.reserveCapacity(limit)
        guard let position else {
            try read(sql.top, [], limit: limit, into: &rows)
            return rows
        }
        try read(sql.ties, [position.0, position.1], limit: limit, into: &rows)
        if rows.count < limit { try read(sql.rest, [position.0], limit: limit - rows.count, into: &rows) }
        return rows
    }

    private func read(_ sql: String, _ values: [Int64], limit: Int, into rows: inout [RawProduct]) throws {
        let statement = try database.statement(sql)
        for (index, value) in values.enumerated() { sqlite3_bind_int64(statement, Int32(index + 1), value) }
        sqlite3_bind_int64(statement, Int32(values.count + 1), Int64(limit))
        while try database.step(statement) { rows.append(decode(statement)) }
        sqlite3_reset(statement)
    }

    func product(_ id: Int64) throws -> RawProduct? {
        let statement = try database.statement("SELECT \(Self.columns) FROM products WHERE id = ?")
        sqlite3_bind_int64(statement, 1, id)
        defer { sqlite3_reset(statement) }
        return try database.step(statement) ? decode(statement) : nil
    }

    /// The (sort key, id) of the row at `offset` in a sort, to start deep pages from.
    func position(column: String, ascending: Bool, offset: Int) throws -> (Int64, Int64)? {
        let direction = ascending ? "ASC" : "DESC"
        let statement = try database.statement(
            "SELECT \(column), id FROM products WHERE listed = 1 ORDER BY \(column) \(direction), id \(direction) LIMIT 1 OFFSET ?")
        sqlite3_bind_int64(statement, 1, Int64(offset))
        defer { sqlite3_reset(statement) }
        return try database.step(statement) ? (sqlite3_column_int64(statement, 0), sqlite3_column_int64(statement, 1)) : nil
    }

    private func decode(_ s: OpaquePointer) -> RawProduct {
        let db = database
        return RawProduct(
            id: sqlite3_column_int64(s, 0), sellerID: sqlite3_column_int64(s, 1),
            kind: db.text(s, 2), category: db.text(s, 3), title: db.text(s, 4), content: db.text(s, 5),
            regularPrice: sqlite3_column_int64(s, 6), price: sqlite3_column_int64(s, 7),
            couponPrice: sqlite3_column_int64(s, 8), discountEndsAt: db.optionalInt(s, 9),
            deliveryFee: sqlite3_column_int64(s, 10), deliverySchedule: db.text(s, 11),
            stock: sqlite3_column_int64(s, 12), images: db.text(s, 13),
            input: db.optionalText(s, 14), connection: db.optionalText(s, 15), pcb: db.optionalText(s, 16),
            switchType: db.optionalText(s, 17), layout: db.optionalText(s, 18), keycapProfile: db.optionalText(s, 19),
            backlight: db.optionalInt(s, 20), ratingCount: sqlite3_column_int64(s, 21),
            ratingSum: sqlite3_column_int64(s, 22), bookmarkCount: sqlite3_column_int64(s, 23),
            version: sqlite3_column_int64(s, 24), createdAt: sqlite3_column_int64(s, 25),
            updatedAt: sqlite3_column_int64(s, 26), deletedAt: db.optionalInt(s, 27))
    }
}
