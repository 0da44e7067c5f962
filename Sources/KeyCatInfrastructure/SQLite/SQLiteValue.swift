import Foundation

/// A value bound to a statement parameter: one of SQLite's five storage classes
/// (<https://sqlite.org/datatype3.html>).
@usableFromInline
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    @usableFromInline package init(integerLiteral value: Int64) { self = .integer(value) }
    @usableFromInline package init(stringLiteral value: String) { self = .text(value) }
    @usableFromInline package init(nilLiteral: ()) { self = .null }
    @usableFromInline package init(floatLiteral value: Double) { self = .real(value) }
    @usableFromInline package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue {
    /// An `INTEGER` from any Swift integer that fits in 64 bits.
    package static func int<I: BinaryInteger>(_ value: I) -> SQLiteValue { .integer(Int64(value)) }
    /// `0` or `1`, SQLite's booleans.
    package static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
    /// `NULL` when absent, else the wrapped value.
    package static func optional(_ value: SQLiteValue?) -> SQLiteValue { value ?? .null }
    /// A `BLOB` from `Data`.
    package static func data(_ value: Data) -> SQLiteValue { .blob([UInt8](value)) }
}
