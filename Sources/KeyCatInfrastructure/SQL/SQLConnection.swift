/// One connection of either store (``SQLiteConnection``, ``PostgresConnection``), as the
/// repositories use it: statements with `?` parameters (Postgres numbers them), prepared once per
/// connection and cached, and rows read through ``SQLRow``.
///
/// Repositories are generic over ``SQLDatabase`` and write each statement once against this
/// protocol; where the dialects differ they ask ``dialect``.
package protocol SQLConnection: SQLTransactionSteps, SendableMetatype {
    /// The row type handed to decoding closures.
    associatedtype Row: SQLRow

    /// What differs between the stores' SQL, for code that has the connection's type but no
    /// connection (`Database.Connection.dialect`).
    static var dialect: SQLDialect { get }

    /// Runs one or more `;`-separated statements without parameters or caching: for schema
    /// changes.
    func execute(_ sql: String) throws

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

    /// Runs `statements` in order, handing each query's rows to its `eachRow`: on Postgres as one
    /// exchange, one round trip for them all; on SQLite one after another, as SQLite has no round
    /// trips to save. For statements that do not depend on each other's results (a later one may
    /// depend on an earlier one's *writes*, which it sees).
    ///
    /// The first statement that fails is thrown and those after it do not run.
    ///
    /// `endingTransaction` says the batch is the last thing its transaction runs: on Postgres
    /// the transaction's `COMMIT` then travels in the same exchange, so a write's last batch and
    /// its commit cost one round trip (a failed commit is thrown from here, and a connection lost
    /// during the exchange is a commit whose outcome is unknown). Nothing may run on the
    /// connection after it until the transaction's body returns. Inside a savepoint, outside any
    /// transaction, and on SQLite (whose transaction commits when its body returns) it is a plain
    /// batch.
    ///
    /// - Returns: for each statement, the rows it inserted, updated or deleted.
    @discardableResult
    func batch(_ statements: [SQLStatement<Row>], endingTransaction: Bool) throws -> [Int]

    /// Asks that the write transaction this connection is in be announced when it commits
    /// (``SQLiteDatabase/commits``, ``PostgresDatabase/commits``): for rows that readers elsewhere
    /// wait for, such as events. A transaction that rolls back announces nothing.
    func announceOnCommit()

    /// Adds `count` new rows of `columns` to `table`, the `index`-th row's values added by `row`
    /// to the array it is handed (empty each time), as fast as the store takes many rows: on
    /// SQLite multi-row `INSERT`s (``insertRows(into:columns:count:suffix:row:)``), on Postgres
    /// one `COPY` (``PostgresConnection/copy(into:columns:count:row:)``). For rows no conflict
    /// clause is needed for; a row the table refuses fails the call.
    func append(into table: String, columns: [String], count: Int, row: (Int, inout [SQLValue]) -> Void) throws
}

extension SQLConnection {
    /// What differs between the stores' SQL.
    package var dialect: SQLDialect { Self.dialect }

    /// ``batch(_:endingTransaction:)`` in the middle of a transaction, or outside one.
    @discardableResult
    package func batch(_ statements: [SQLStatement<Row>]) throws -> [Int] {
        try batch(statements, endingTransaction: false)
    }

    /// ``batch(_:)`` of `limit` statements at a time, for writes whose number grows with the
    /// data (a rebuild's postings, a seller's words): on Postgres a round trip per `limit`
    /// rather than one each, while no exchange holds more than `limit` statements' arguments
    /// and results at once.
    package func batch(_ statements: [SQLStatement<Row>], atMost limit: Int) throws {
        precondition(limit > 0, "a batch holds at least one statement")
        for start in stride(from: 0, to: statements.count, by: limit) {
            try batch(Array(statements[start..<min(start + limit, statements.count)]))
        }
    }
}

/// One statement of a ``SQLConnection/batch(_:endingTransaction:)``: its SQL, its arguments, and what to do with
/// each row it returns.
package struct SQLStatement<Row> {
    package let sql: String
    package let arguments: [SQLValue]
    package let eachRow: ((Row) throws -> Void)?

    /// A statement whose rows, if any, are not read.
    package static func run(_ sql: String, _ arguments: [SQLValue]) -> SQLStatement {
        SQLStatement(sql: sql, arguments: arguments, eachRow: nil)
    }

    /// A query whose rows are handed to `eachRow`.
    package static func query(_ sql: String, _ arguments: [SQLValue], eachRow: @escaping (Row) throws -> Void) -> SQLStatement {
        SQLStatement(sql: sql, arguments: arguments, eachRow: eachRow)
    }
}

extension SQLConnection {
    package func append(into table: String, columns: [String], count: Int, row: (Int, inout [SQLValue]) -> Void) throws {
        try insertRows(into: table, columns: columns, count: count, row: row)
    }

    /// `INSERT INTO table (columns) VALUES (…), (…)… suffix` of `count` rows, the `index`-th
    /// row's values added by `row`, in as few statements as ``parametersPerInsert`` allows: two
    /// texts at most, the full one and the last, so the statement caches stay small.
    package func insertRows(into table: String, columns: [String], count: Int, suffix: String = "",
                            row: (Int, inout [SQLValue]) -> Void) throws {
        let rowsPerStatement = Self.parametersPerInsert / columns.count
        let placeholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        func sql(_ rows: Int) -> String { head + Array(repeating: placeholders, count: rows).joined(separator: ", ") + suffix }
        let full = sql(rowsPerStatement)
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(min(count, rowsPerStatement) * columns.count)
        var start = 0
        while start < count {
            let end = min(start + rowsPerStatement, count)
            arguments.removeAll(keepingCapacity: true)
            for index in start..<end { row(index, &arguments) }
            _ = try run(end - start == rowsPerStatement ? full : sql(end - start), arguments)
            start = end
        }
    }

    /// Parameters per statement of ``insertRows(into:columns:count:suffix:row:)``: SQLite inserts
    /// a statement of ten thousand rows a third slower a row than ten of a thousand.
    static var parametersPerInsert: Int { 3_000 }
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

    /// Whether the table `table` has the column `column`: a database opened without migrating
    /// may predate it.
    package func hasColumn(_ column: String, of table: String) throws -> Bool {
        try queryOne(dialect.columnExists, [.text(table), .text(column)]) { _ in true } ?? false
    }
}

extension SQLiteConnection: SQLConnection {
    package static var dialect: SQLDialect { .sqlite }

    package func announceOnCommit() { announcesCommit = true }

    @discardableResult
    package func batch(_ statements: [SQLStatement<SQLiteRow>], endingTransaction: Bool) throws -> [Int] {
        try statements.map { statement in
            guard let eachRow = statement.eachRow else { return try run(statement.sql, statement.arguments) }
            var rows = 0
            try forEach(statement.sql, statement.arguments) { row in
                rows += 1
                try eachRow(row)
            }
            return rows
        }
    }
}

extension PostgresConnection: SQLConnection {
    package static var dialect: SQLDialect { .postgres }

    package func append(into table: String, columns: [String], count: Int, row: (Int, inout [SQLValue]) -> Void) throws {
        try copy(into: table, columns: columns, count: count, row: row)
    }

    package func announceOnCommit() { announcesCommit = true }

    @discardableResult
    package func batch(_ statements: [SQLStatement<PostgresRow>], endingTransaction: Bool) throws -> [Int] {
        let results = try exchange(statements.map { PostgresStatement($0.sql, $0.arguments) },
                                   endingTransaction: endingTransaction)
        for (statement, result) in zip(statements, results) {
            guard let eachRow = statement.eachRow else { continue }
            for index in 0..<result.rowCount { try eachRow(result.row(index)) }
        }
        return results.map(\.affectedRows)
    }
}
