import Foundation

/// A value bound to a statement parameter (`$1`, `$2`… or `?`).
///
/// The cases mirror ``SQLiteValue``'s so repositories can build the same argument lists for both
/// stores, plus `bool` for Postgres's own `boolean`. Parameters travel in libpq's text format and
/// the server infers each one's type from where it stands in the statement, as it does for a
/// literal: `.integer(5)` fits an `integer`, `bigint` or `numeric` column alike. Bytes travel in
/// binary format, so a `bytea` parameter is never escaped. Nothing is ever spliced into the SQL.
@usableFromInline
package enum PostgresValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)
}

extension PostgresValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    @usableFromInline package init(integerLiteral value: Int64) { self = .integer(value) }
    @usableFromInline package init(stringLiteral value: String) { self = .text(value) }
    @usableFromInline package init(nilLiteral: ()) { self = .null }
    @usableFromInline package init(floatLiteral value: Double) { self = .real(value) }
    @usableFromInline package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PostgresValue {
    /// A `bigint` from any Swift integer that fits in 64 bits.
    package static func int<I: BinaryInteger>(_ value: I) -> PostgresValue { .integer(Int64(value)) }
    /// `NULL` when absent, else the wrapped value.
    package static func optional(_ value: PostgresValue?) -> PostgresValue { value ?? .null }
    /// A `bytea` from `Data`.
    package static func data(_ value: Data) -> PostgresValue { .bytes([UInt8](value)) }

    /// The same value for SQLite, so one argument list serves both stores. Booleans become SQLite's
    /// 0 and 1.
    package init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case let .integer(integer): self = .integer(integer)
        case let .real(real): self = .real(real)
        case let .text(text): self = .text(text)
        case let .blob(bytes): self = .bytes(bytes)
        }
    }

    /// The parameter as libpq receives it: the bytes to send (nil for `NULL`) and whether they are
    /// in binary format.
    ///
    /// - Throws: ``PostgresError`` (``PostgresError/isInvalidText``) for text holding a NUL
    ///   character, which no Postgres text type can store; sent as it is, libpq would cut the
    ///   string at the NUL and store something else without a word.
    func wireFormat() throws(PostgresError) -> (bytes: [UInt8]?, isBinary: Bool) {
        switch self {
        case .null:
            return (nil, false)
        case let .integer(integer):
            return (Array(String(integer).utf8), false)
        case let .real(real):
            return (Array(Self.text(of: real).utf8), false)
        case let .text(text):
            let bytes = Array(text.utf8)
            if bytes.contains(0) { throw PostgresError.nulInText() }
            return (bytes, false)
        case let .bytes(bytes):
            return (bytes, true)
        case let .bool(bool):
            return (Array((bool ? "t" : "f").utf8), false)
        }
    }

    /// A double in a form `float8in` reads back exactly: the shortest round-tripping digits, and
    /// Postgres's spellings of the special values.
    private static func text(of real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return "\(real)"
    }
}
