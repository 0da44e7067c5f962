extension SQLValue {
    /// The parameter as libpq receives it: the bytes to send (nil for `NULL`) and whether they are
    /// in binary format.
    ///
    /// Everything but bytes travels in libpq's text format, and the server infers each
    /// parameter's type from where it stands in the statement, as it does for a literal:
    /// `.integer(5)` fits an `integer`, `bigint`, `numeric` or `boolean` column alike. Bytes travel
    /// in binary format, so a `bytea` parameter is never escaped. Nothing is ever spliced into
    /// the SQL.
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
            return (Array(Self.postgresText(of: real).utf8), false)
        case let .text(text):
            let bytes = Array(text.utf8)
            if bytes.contains(0) { throw PostgresError.nulInText() }
            return (bytes, false)
        case let .blob(bytes):
            return (bytes, true)
        }
    }

    /// A double in a form `float8in` reads back exactly: the shortest round-tripping digits, and
    /// Postgres's spellings of the special values.
    static func postgresText(of real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return "\(real)"
    }
}
