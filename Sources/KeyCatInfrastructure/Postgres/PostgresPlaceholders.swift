/// Turns SQLite's parameter markers into Postgres's, so one SQL text can run on both stores where
/// their dialects agree.
///
/// `?` becomes `$1`, `$2`… in order, and `?NNN` becomes `$NNN`; a plain `?` after `?NNN` takes the
/// largest number so far plus one, as in SQLite (<https://sqlite.org/lang_expr.html#varparam>).
/// Nothing inside a string literal (`'…'`, `E'…'` with backslash escapes, `$tag$…$tag$`), a
/// quoted identifier (`"…"`) or a comment (`-- …`, nested `/* … */`) is touched, and SQL already
/// written with `$n` passes through unchanged. Every other `?` is taken for a parameter, so
/// Postgres's `jsonb` operators `?`, `?|` and `?&` cannot be written this way: call
/// `jsonb_exists` and friends instead.
package enum PostgresPlaceholders {
    /// `sql` with every SQLite parameter marker numbered for Postgres.
    package static func numbered(_ sql: String) -> String {
        let bytes = Array(sql.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else { return sql }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var largest = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"):
                let escapes = isEscapeStringPrefix(bytes, before: index)
                let end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: escapes)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "\""):
                let end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: false)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "-") where next(bytes, index) == UInt8(ascii: "-"):
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "/") where next(bytes, index) == UInt8(ascii: "*"):
                let end = endOfBlockComment(bytes, from: index)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "$"):
                let end = endOfDollarQuoted(bytes, from: index) ?? index + 1
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "?"):
                var digitsEnd = index + 1
                while digitsEnd < bytes.count, isDigit(bytes[digitsEnd]) { digitsEnd += 1 }
                let number: Int
                if digitsEnd > index + 1, let explicit = Int(String(decoding: bytes[(index + 1)..<digitsEnd], as: UTF8.self)) {
                    number = explicit
                } else {
                    number = largest + 1
                }
                largest = max(largest, number)
                output += Array("$\(number)".utf8)
                index = digitsEnd
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func next(_ bytes: [UInt8], _ index: Int) -> UInt8? {
        index + 1 < bytes.count ? bytes[index + 1] : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    /// Whether the quote at `index` opens an `E'…'` string, where backslash escapes a quote.
    private static func isEscapeStringPrefix(_ bytes: [UInt8], before index: Int) -> Bool {
        guard index >= 1, bytes[index - 1] | 0x20 == UInt8(ascii: "e") else { return false }
        return index == 1 || !isIdentifierByte(bytes[index - 2])
    }

    /// The index just past the quoted run opening at `start`; a doubled quote stays inside it.
    /// An unterminated run ends with the text (the server will report it).
    private static func endOfQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
        var index = start + 1
        while index < bytes.count {
            if backslashEscapes && bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == quote {
                if next(bytes, index) == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The index just past the (possibly nested) block comment opening at `start`.
    private static func endOfBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && next(bytes, index) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && next(bytes, index) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index just past a dollar-quoted string opening at `start` (`$$…$$`, `$tag$…$tag$`),
    /// or nil when the `$` opens none (a `$1` parameter, or `$` inside an identifier).
    private static func endOfDollarQuoted(_ bytes: [UInt8], from start: Int) -> Int? {
        if start > 0 && isIdentifierByte(bytes[start - 1]) { return nil }
        var tagEnd = start + 1
        while tagEnd < bytes.count, isIdentifierByte(bytes[tagEnd]) {
            if tagEnd == start + 1 && isDigit(bytes[tagEnd]) { return nil }
            tagEnd += 1
        }
        guard tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$") else { return nil }
        let tag = bytes[start...tagEnd]
        var index = tagEnd + 1
        while index + tag.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "$") && bytes[index..<(index + tag.count)].elementsEqual(tag) {
                return index + tag.count
            }
            index += 1
        }
        return bytes.count
    }
}
