import Foundation

/// A value bound to a `?` parameter, on either store: SQLite's five storage classes
/// (<https://sqlite.org/datatype3.html>), which Postgres takes as they are (`bigint`,
/// `double precision`, `text`, `bytea`; see ``SQLValue/wireFormat()`` for how they travel).
///
/// Booleans are the integers 0 and 1 on both stores, so every row reads the same through one
/// decoder; Postgres also reads `1` and `0` as a `boolean` parameter.
@usableFromInline
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    @usableFromInline package init(integerLiteral value: Int64) { self = .integer(value) }
    @usableFromInline package init(stringLiteral value: String) { self = .text(value) }
    @usableFromInline package init(nilLiteral: ()) { self = .null }
    @usableFromInline package init(floatLiteral value: Double) { self = .real(value) }
    @usableFromInline package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue {
    /// An integer from any Swift integer that fits in 64 bits.
    /// Inlinable, so that a call from another module is specialised rather than generic (a
    /// search built several a page through the generic entry point).
    @inlinable package static func int<I: BinaryInteger>(_ value: I) -> SQLValue { .integer(Int64(value)) }
    /// `0` or `1`.
    @inlinable package static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// `NULL` when absent, else the wrapped value.
    package static func optional(_ value: SQLValue?) -> SQLValue { value ?? .null }
    /// Bytes from `Data`.
    package static func data(_ value: Data) -> SQLValue { .blob([UInt8](value)) }
}
