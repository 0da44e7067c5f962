internal import CLibPQ

/// One row of a query's result. Valid only inside the closure it is handed to (the result is
/// freed afterwards); reading it never copies more than the column asked for.
///
/// Column indexes are zero-based, in the order of the `SELECT` list. Values arrive in Postgres's
/// text format and are read the way ``SQLiteRow`` reads SQLite's, so one decoding closure can
/// serve both stores: `NULL` reads as 0, "" or [], and a value that does not parse as the type
/// asked for reads as 0 (ask for the type the column holds).
package struct PostgresRow {
    let result: OpaquePointer
    let row: Int32

    /// The `bytea` type's object id (`pg_type.oid`), whose text form needs unescaping.
    private static let byteaTypeID: UInt32 = 17

    /// The number of columns in the row.
    package var columnCount: Int { Int(PQnfields(result)) }

    /// Whether the column holds `NULL`.
    package func isNull(_ column: Int) -> Bool { PQgetisnull(result, row, Int32(column)) == 1 }

    /// The column's text, as the server sent it.
    private func text(_ column: Int) -> UnsafeRawBufferPointer {
        let index = Int32(column)
        guard let value = PQgetvalue(result, row, index) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, index)))
    }

    /// The column as a 64-bit integer (`NULL` reads as 0). Reads `integer`, `bigint` and
    /// `smallint` columns, and `numeric` or `double precision` ones holding a whole number.
    package func int64(_ column: Int) -> Int64 {
        let text = text(column)
        if let value = Self.parseInteger(text) { return value }
        if let real = Double(String(decoding: text, as: UTF8.self)), let whole = Int64(exactly: real) {
            return whole
        }
        return 0
    }

    /// The column as an `Int` (`NULL` reads as 0).
    package func int(_ column: Int) -> Int { Int(truncatingIfNeeded: int64(column)) }

    /// The column as a boolean: `boolean` true, or a non-zero number.
    package func bool(_ column: Int) -> Bool {
        let text = text(column)
        switch text.first {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"), nil: return false
        default: return int64(column) != 0
        }
    }

    /// The column as a double (`NULL` reads as 0); `NaN` and `±Infinity` read as themselves.
    package func double(_ column: Int) -> Double {
        Double(String(decoding: text(column), as: UTF8.self)) ?? 0
    }

    /// The column as UTF-8 text (`NULL` reads as "").
    package func string(_ column: Int) -> String { String(decoding: text(column), as: UTF8.self) }

    /// The column's text as a ``SQLiteTextCode`` (its first 16 bytes packed into two words), for
    /// matching short codes with integer compares, as ``SQLiteRow/textCode(_:)`` does.
    package func textCode(_ column: Int) -> SQLiteTextCode {
        isNull(column) ? SQLiteTextCode() : SQLiteTextCode(text(column))
    }

    /// The column as bytes: a `bytea` column's bytes, or any other column's text (`NULL` reads
    /// as []).
    package func bytes(_ column: Int) -> [UInt8] {
        guard !isNull(column) else { return [] }
        let text = text(column)
        guard PQftype(result, Int32(column)) == Self.byteaTypeID,
            let escaped = text.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return [UInt8](text) }
        // The text form is hex (`\x…`) or, with `bytea_output = escape`, octal escapes.
        var count = 0
        guard let unescaped = PQunescapeBytea(escaped, &count) else { return [] }
        defer { PQfreemem(unescaped) }
        return [UInt8](UnsafeBufferPointer(start: unescaped, count: count))
    }

    /// The column as an optional integer.
    package func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column as optional text.
    package func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }

    /// The column as an optional double.
    package func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }

    /// A decimal integer with an optional sign, or nil when `text` is anything else or overflows.
    private static func parseInteger(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard !text.isEmpty else { return nil }
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative || text[0] == UInt8(ascii: "+") { index = 1 }
        guard index < text.count else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = Int64(text[index]) - 48
            guard digit >= 0 && digit <= 9 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowA || overflowB { return nil }
            value = next
            index += 1
        }
        return value
    }
}
