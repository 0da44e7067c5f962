internal import CSQLite

/// The current row of a stepping statement. Valid only inside the closure it is handed to
/// (keeping it afterwards reads whatever row the statement is on next); reading it never copies
/// more than the column asked for.
///
/// Column indexes are zero-based, in the order of the `SELECT` list.
@usableFromInline
package struct SQLiteRow {
    let statement: OpaquePointer

    /// The number of columns in the row.
    package var columnCount: Int { Int(sqlite3_column_count(statement)) }

    /// Whether the column holds `NULL`.
    package func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL
    }

    /// The column as a 64-bit integer (`NULL` reads as 0).
    package func int64(_ column: Int) -> Int64 { sqlite3_column_int64(statement, Int32(column)) }

    /// The column as an `Int` (`NULL` reads as 0).
    package func int(_ column: Int) -> Int { Int(sqlite3_column_int64(statement, Int32(column))) }

    /// The column as a boolean: non-zero is true.
    package func bool(_ column: Int) -> Bool { sqlite3_column_int64(statement, Int32(column)) != 0 }

    /// The column as a double (`NULL` reads as 0).
    package func double(_ column: Int) -> Double { sqlite3_column_double(statement, Int32(column)) }

    /// The column as UTF-8 text, decoded straight from SQLite's buffer (`NULL` reads as "").
    package func string(_ column: Int) -> String {
        let index = Int32(column)
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's text as a ``SQLiteTextCode``: its first 16 bytes packed into two words, for
    /// matching short codes (`'group_buy'`, `'hot_swap'`…) with integer compares, without making
    /// a `String`. `NULL` reads as the empty code.
    package func textCode(_ column: Int) -> SQLiteTextCode {
        let index = Int32(column)
        guard let text = sqlite3_column_text(statement, index) else { return SQLiteTextCode() }
        let count = Int(sqlite3_column_bytes(statement, index))
        return SQLiteTextCode(UnsafeRawBufferPointer(start: text, count: count))
    }

    /// The column as bytes (`NULL` and empty blobs read as []).
    package func bytes(_ column: Int) -> [UInt8] {
        let index = Int32(column)
        guard let blob = sqlite3_column_blob(statement, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, index))
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The column as an optional integer.
    package func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column as optional text.
    package func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }

    /// The column as an optional double.
    package func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }
}

/// Up to 16 bytes of text packed into two words, with the full length: equal codes are equal
/// texts for any text of at most 16 bytes.
package struct SQLiteTextCode: Hashable, Sendable {
    package private(set) var count = 0
    package private(set) var low: UInt64 = 0
    package private(set) var high: UInt64 = 0

    package init() {}

    /// Packs `bytes`; only the first 16 take part (compare ``count`` to tell longer texts).
    package init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(16))) }
        (low, high) = words
    }

    /// Packs a string's UTF-8 bytes.
    package init(_ text: String) {
        var text = text
        self = text.withUTF8 { SQLiteTextCode(UnsafeRawBufferPointer($0)) }
    }
}
