/// The analyser's fast path: most listings and queries are written only in ASCII, Hangul
/// syllables, compatibility jamo, full-width ASCII and a few punctuation marks, which NFC leaves
/// as they are and of which only ASCII letters have case. Such text is normalised byte by byte
/// and cut into words with ASCII's tables; any other text takes Unicode's (Foundation's NFC and
/// the scalar properties), and both give the same terms (checked against the analyser before
/// the fast path on 340,000 texts of mixed scripts, jamo, combining marks and white space).
extension SearchAnalyzer {
    /// Whether NFC leaves a scalar as it is whatever surrounds it, and it has no case or only
    /// ASCII's: ASCII, Hangul syllables, compatibility jamo, full-width ASCII, the dashes and dots
    /// of general punctuation (U+2010–2027). Most listings and queries are written in these
    /// alone, and are normalised without Unicode's tables.
    @inline(__always)
    static func isPlain(_ value: UInt32) -> Bool {
        value < 0x80 || Hangul.syllables.contains(value) || Hangul.compatibilityJamo.contains(value)
            || (0xFF01...0xFF5E).contains(value) || (0x2010...0x2027).contains(value)
    }

    /// ``normalize(_:)`` of text made of plain scalars only (``isPlain(_:)``), without Unicode's
    /// tables: NFC keeps it as it is and only ASCII letters (full-width ones folded first) have
    /// case. Nil for any other text.
    static func normalizedPlain(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            var value = scalar.value
            guard isPlain(value) else { return nil }
            if value >= 0xFF01 { value -= 0xFEE0 }
            if value < 0x80 {
                bytes.append(value >= 0x41 && value <= 0x5A ? UInt8(value + 0x20) : UInt8(value))
            } else {
                UTF8.encode(Unicode.Scalar(value)!) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text in NFC, without Unicode's tables when it is plain (``isPlain(_:)``).
    static func composed(_ text: String) -> String {
        text.unicodeScalars.allSatisfy { isPlain($0.value) } ? text : text.precomposedStringWithCanonicalMapping
    }

    /// A listing's title normalised and without white space: what the exact-phrase bonus
    /// compares a query with (`search_documents.title_key`).
    package static func titleKey(_ title: String) -> String {
        let normalized = normalize(title)
        // Plain scalars form no grapheme clusters across white space, so dropping white-space
        // scalars drops exactly the white-space characters.
        guard normalized.unicodeScalars.allSatisfy({ isPlain($0.value) }) else { return normalized.filter { !$0.isWhitespace } }
        return string(normalized.unicodeScalars.filter { !isWhitespace($0) })
    }

    /// A string of `scalars`, encoded once.
    static func string<Scalars: Collection<Unicode.Scalar>>(_ scalars: Scalars) -> String {
        var count = 0
        for scalar in scalars { count += UTF8.width(scalar) }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for scalar in scalars {
                UTF8.encode(scalar) { byte in
                    buffer[index] = byte
                    index += 1
                }
            }
            return index
        }
    }

    /// Unicode's Alphabetic or a numeric type, from a table for ASCII.
    @inline(__always)
    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || (value >= 0x30 && value <= 0x39) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    @inline(__always)
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value >= 0x30 && scalar.value <= 0x39 : scalar.properties.numericType != nil
    }

    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (scalar.value >= 0x09 && scalar.value <= 0x0D) : scalar.properties.isWhitespace
    }
}
