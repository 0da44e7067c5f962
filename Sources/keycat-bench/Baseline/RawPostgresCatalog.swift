/// The catalog reads of ``RawCatalog`` (the same SQL, numbered for Postgres), through libpq.
struct RawPostgresCatalog: RawCatalogReads {
    let database: RawPostgres

    func pageSQL(column: String, ascending: Bool) -> (top: String, ties: String, rest: String) {
        let sql = RawCatalog.pageSQL(column: column, ascending: ascending)
        return (numbered(sql.top), numbered(sql.ties), numbered(sql.rest))
    }

    func page(_ sql: (top: String, ties: String, rest: String), after position: (Int64, Int64)?, limit: Int) throws -> [RawProduct] {
        var rows: [RawProduct] = []
        rows.reserveCapacity(limit)
        guard let position else {
            try read(database.run(sql.top, [.int(Int64(limit))]), into: &rows)
            return rows
        }
        try read(database.run(sql.ties, [.int(position.0), .int(position.1), .int(Int64(limit))]), into: &rows)
        if rows.count < limit {
            try read(database.run(sql.rest, [.int(position.0), .int(Int64(limit - rows.count))]), into: &rows)
        }
        return rows
    }

    private func read(_ result: RawPostgres.Result, into rows: inout [RawProduct]) {
        for row in 0..<result.rows { rows.append(decode(result, row)) }
    }

    func product(_ id: Int64) throws -> RawProduct? {
        let result = try database.run("SELECT \(RawCatalog.columns) FROM products WHERE id = $1", [.int(id)])
        return result.rows > 0 ? decode(result, 0) : nil
    }

    func position(column: String, ascending: Bool, offset: Int) throws -> (Int64, Int64)? {
        let direction = ascending ? "ASC" : "DESC"
        let result = try database.run(
            "SELECT \(column), id FROM products WHERE listed = 1 ORDER BY \(column) \(direction), id \(direction) LIMIT 1 OFFSET $1",
            [.int(Int64(offset))])
        return result.rows > 0 ? (result.int(0, 0), result.int(0, 1)) : nil
    }

    /// `?` markers as `$1`, `$2`, … (the page SQL has no `?` inside literals).
    private func numbered(_ sql: String) -> String {
        var number = 0
        var output = ""
        for character in sql {
            if character == "?" {
                number += 1
                output += "$\(number)"
            } else {
                output.append(character)
            }
        }
        return output
    }

    private func decode(_ r: RawPostgres.Result, _ i: Int32) -> RawProduct {
        RawProduct(
            id: r.int(i, 0), sellerID: r.int(i, 1),
            kind: r.text(i, 2), category: r.text(i, 3), title: r.text(i, 4), content: r.text(i, 5),
            regularPrice: r.int(i, 6), price: r.int(i, 7), couponPrice: r.int(i, 8), discountEndsAt: r.optionalInt(i, 9),
            deliveryFee: r.int(i, 10), deliverySchedule: r.text(i, 11), stock: r.int(i, 12), images: r.text(i, 13),
            input: r.optionalText(i, 14), connection: r.optionalText(i, 15), pcb: r.optionalText(i, 16),
            switchType: r.optionalText(i, 17), layout: r.optionalText(i, 18), keycapProfile: r.optionalText(i, 19),
            backlight: r.optionalInt(i, 20), ratingCount: r.int(i, 21), ratingSum: r.int(i, 22), bookmarkCount: r.int(i, 23),
            version: r.int(i, 24), createdAt: r.int(i, 25), updatedAt: r.int(i, 26), deletedAt: r.optionalInt(i, 27))
    }
}
