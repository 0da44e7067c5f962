/// A value bound to a `?` parameter on either store: SQLite's five storage classes, which
/// Postgres takes as they are. Booleans are the integers 0 and 1 on both, so rows read the same.
package typealias SQLValue = SQLiteValue

/// One connection of either store (``SQLiteConnection``, ``PostgresConnection``), as the
/// repositories use it: statements with `?` parameters (Postgres numbers them), prepared once per
/// connection and cached, and rows read through ``SQLRow``.
///
/// Repositories are generic over ``SQLDatabase`` and write each statement once against this
/// protocol; where the dialects differ they ask ``dialect``.
package protocol SQLConnection: AnyObject {
    /// The row type handed to decoding closures.
    associatedtype Row: SQLRow

    /// What differs between the stores' SQL.
    var dialect: SQLDialect { get }

    /// Runs one statement, ignoring any rows.
    ///
    /// - Returns: the number of rows the statement inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Runs a query and decodes every row with `decode`.
    func query<Result>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> Result) throws -> [Result]

    /// Runs a query and decodes its first row, or returns nil when there is none.
    func queryOne<Result>(_ sql: String, _ arguments: [SQLValue], _ decode: (Row) throws -> Result) throws -> Result?

    /// Runs a query and hands each row to `body`, without collecting them.
    func forEach(_ sql: String, _ arguments: [SQLValue], _ body: (Row) throws -> Void) throws
}

extension SQLConnection {
    /// Runs an `INSERT` of one row and returns the new row's `id` (`RETURNING id`, which SQLite
    /// has had since 3.35 and Postgres always).
    package func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try queryOne(sql + " RETURNING id", arguments) { $0.int64(0) } ?? 0
    }
}

extension SQLConnection {
    /// Whether the table `name` exists: a database opened without migrating may predate it.
    package func hasTable(_ name: String) throws -> Bool {
        try queryOne(dialect.tableExists, [.text(name)]) { _ in true } ?? false
    }
}

extension SQLiteConnection: SQLConnection {
    package var dialect: SQLDialect { .sqlite }
}

extension PostgresConnection: SQLConnection {
    package var dialect: SQLDialect { .postgres }

    // The shared statements' entry points. Disfavoured, so that a call on a concrete
    // `PostgresConnection` with a literal argument list still means the `PostgresValue` one.

    @_disfavoredOverload @discardableResult
    package func run(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try run(sql, arguments.map(PostgresValue.init))
    }

    @_disfavoredOverload
    package func query<Result>(
        _ sql: String, _ arguments: [SQLValue], _ decode: (PostgresRow) throws -> Result
    ) throws -> [Result] {
        try query(sql, arguments.map(PostgresValue.init), decode)
    }

    @_disfavoredOverload
    package func queryOne<Result>(
        _ sql: String, _ arguments: [SQLValue], _ decode: (PostgresRow) throws -> Result
    ) throws -> Result? {
        try queryOne(sql, arguments.map(PostgresValue.init), decode)
    }

    @_disfavoredOverload
    package func forEach(_ sql: String, _ arguments: [SQLValue], _ body: (PostgresRow) throws -> Void) throws {
        try forEach(sql, arguments.map(PostgresValue.init), body)
    }
}
