import CSQLite
import KeyCatInfrastructure

/// One statement KeyCat ran for a search, with its arguments, as the raw baseline runs it again.
struct TracedStatement {
    var sql: String
    var arguments: [SQLValue]
    /// The exchange with the store it travelled in, when it shared one with its neighbours:
    /// statements in a row with the same number are replayed together too (on Postgres one
    /// round trip, as KeyCat's ``PostgresConnection`` sent them).
    var exchange: Int?
}

extension Array where Element == TracedStatement {
    /// The runs of statements that travelled in one exchange, in order: a statement without an
    /// exchange number is a run of its own.
    var exchanges: [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, let exchange = self[start].exchange, self[end].exchange == exchange { end += 1 }
            runs.append(start..<end)
            start = end
        }
        return runs
    }
}

/// A search page as a hand-written server would read it with the same SQL: the statements KeyCat
/// ran for it (the plan's look-ups, the group counts, the window's floors, the page; on a short
/// first page, the deeper floors and the page again), each
/// prepared once and run with the same arguments, the last one's rows decoded into plain fields.
/// What the baseline leaves out is what KeyCat adds: the query's analysis, the plan, building
/// the SQL, the cursor, typed `Product`s.
protocol RawSearchReplay {
    /// Runs `statements` in order and returns the ids and keys of the last one's rows.
    func replay(_ statements: [TracedStatement]) throws -> [(id: Int64, key: Int64)]
}

/// ``RawSearchReplay`` through SQLite's C API.
struct RawSearch: RawSearchReplay {
    let database: RawDatabase

    func replay(_ statements: [TracedStatement]) throws -> [(id: Int64, key: Int64)] {
        var page: [(RawProduct, tags: String, listed: Int64, key: Int64)] = []
        page.reserveCapacity(21)
        try run(statements) { statement in
            page.append((RawSearch.decode(statement, database), database.text(statement, 29), sqlite3_column_int64(statement, 28),
                         sqlite3_column_int64(statement, 30)))
        }
        return page.map { ($0.0.id, $0.key) }
    }

    /// Runs `statements` in order, each prepared once, handing each row of the last one to `row`
    /// (the others' rows are stepped through, their first column read).
    func run(_ statements: [TracedStatement], row: (OpaquePointer) -> Void) throws {
        for (index, traced) in statements.enumerated() {
            let statement = try database.statement(traced.sql)
            for (position, argument) in traced.arguments.enumerated() {
                let slot = Int32(position + 1)
                switch argument {
                case let .integer(value): sqlite3_bind_int64(statement, slot, value)
                case let .text(value): database.bindText(statement, slot, value)
                case let .real(value): sqlite3_bind_double(statement, slot, value)
                case .null, .blob: sqlite3_bind_null(statement, slot)
                }
            }
            let isLast = index == statements.count - 1
            while try database.step(statement) {
                if isLast {
                    row(statement)
                } else {
                    _ = sqlite3_column_int64(statement, 0)
                }
            }
            sqlite3_reset(statement)
        }
    }

    static func decode(_ s: OpaquePointer, _ db: RawDatabase) -> RawProduct {
        RawProduct(
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

/// ``RawSearchReplay`` through libpq, each statement's `?` numbered as `$1`, `$2`, ….
final class RawPostgresSearch: RawSearchReplay {
    let database: RawPostgres
    private var numbered: [String: String] = [:]

    init(database: RawPostgres) { self.database = database }

    func replay(_ statements: [TracedStatement]) throws -> [(id: Int64, key: Int64)] {
        var page: [(RawProduct, tags: String, listed: Int64, key: Int64)] = []
        guard let result = try run(statements) else { return [] }
        for row in 0..<result.rows {
            page.append((RawPostgresSearch.decode(result, row), result.text(row, 29), result.int(row, 28), result.int(row, 30)))
        }
        return page.map { ($0.0.id, $0.key) }
    }

    /// Runs `statements` in order, each prepared once, those KeyCat sent together sent together
    /// (``TracedStatement/exchange``), and returns the last one's result.
    func run(_ statements: [TracedStatement]) throws -> RawPostgres.Result? {
        var last: RawPostgres.Result?
        for run in statements.exchanges {
            let prepared = statements[run].map { traced -> (sql: String, parameters: [RawPostgres.Parameter]) in
                let sql = numbered[traced.sql] ?? Self.number(traced.sql)
                numbered[traced.sql] = sql
                return (sql, traced.arguments.map { argument in
                    switch argument {
                    case let .integer(value): .int(value)
                    case let .text(value): .text(value)
                    case let .real(value): .text(String(value))
                    case .null, .blob: .null
                    }
                })
            }
            last = prepared.count == 1 ? try database.run(prepared[0].sql, prepared[0].parameters) : try database.pipeline(prepared).last
        }
        return last
    }

    /// `?` markers as `$1`, `$2`, … (search's SQL has no `?` inside literals).
    static func number(_ sql: String) -> String {
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

    static func decode(_ r: RawPostgres.Result, _ i: Int32) -> RawProduct {
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
