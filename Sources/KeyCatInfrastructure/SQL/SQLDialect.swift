/// The few places where SQLite's SQL and Postgres's differ in what the repositories need.
/// Everything else (`ON CONFLICT`, `RETURNING`, partial indexes, row values, `coalesce`) is
/// written once and runs on both.
package struct SQLDialect: Sendable, Equatable {
    /// Which store this is.
    package enum Store: String, Sendable { case sqlite, postgres }

    package let store: Store

    package static let sqlite = SQLDialect(store: .sqlite)
    package static let postgres = SQLDialect(store: .postgres)

    /// A subquery yielding the integers of a JSON array passed as one text parameter, for
    /// `id IN (…)` with any number of ids in one prepared statement.
    package var integersFromJSON: String {
        switch store {
        case .sqlite: "SELECT value FROM json_each(?)"
        case .postgres: "SELECT value::bigint FROM json_array_elements_text(?::json)"
        }
    }

    /// A query answering one row when the table named by its one parameter exists (in the
    /// connection's schema, for Postgres), none otherwise.
    package var tableExists: String {
        switch store {
        case .sqlite: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?"
        case .postgres: "SELECT 1 WHERE to_regclass(CAST(? AS text)) IS NOT NULL"
        }
    }

    /// The smaller of two values (`min(a, b)` in SQLite, `least(a, b)` in Postgres).
    package func smaller(_ first: String, _ second: String) -> String {
        switch store {
        case .sqlite: "min(\(first), \(second))"
        case .postgres: "least(\(first), \(second))"
        }
    }

    /// The larger of two values (`max(a, b)` in SQLite, `greatest(a, b)` in Postgres).
    package func larger(_ first: String, _ second: String) -> String {
        switch store {
        case .sqlite: "max(\(first), \(second))"
        case .postgres: "greatest(\(first), \(second))"
        }
    }

    /// What ends a `SELECT` that locks the rows it reads until the transaction ends: `FOR UPDATE`
    /// on Postgres, nothing on SQLite, whose one writer already runs each write alone.
    package var lockingSelectedRows: String {
        switch store {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }
}
