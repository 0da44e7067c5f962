/// Typed reads of one result row, the same on both stores (``SQLiteRow``, ``PostgresRow``), so one
/// decoding function serves both.
///
/// Column indexes are zero-based, in the order of the `SELECT` list; `NULL` reads as 0, "" or [].
package protocol SQLRow: SendableMetatype {
    /// Whether the column holds `NULL`.
    func isNull(_ column: Int) -> Bool
    /// The column as a 64-bit integer.
    func int64(_ column: Int) -> Int64
    /// The column as an `Int`.
    func int(_ column: Int) -> Int
    /// The column as a boolean: non-zero is true.
    func bool(_ column: Int) -> Bool
    /// The column as a double.
    func double(_ column: Int) -> Double
    /// The column as UTF-8 text.
    func string(_ column: Int) -> String
    /// The column's text packed for matching short codes without making a `String`.
    func textCode(_ column: Int) -> SQLiteTextCode
    /// The column as bytes.
    func bytes(_ column: Int) -> [UInt8]
    /// The column as an optional integer.
    func optionalInt64(_ column: Int) -> Int64?
    /// The column as optional text.
    func optionalString(_ column: Int) -> String?
    /// The column as an optional double.
    func optionalDouble(_ column: Int) -> Double?
}

extension SQLiteRow: SQLRow {}
extension PostgresRow: SQLRow {}
