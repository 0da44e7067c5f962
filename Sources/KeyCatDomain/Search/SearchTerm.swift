import Foundation

/// A term or vocabulary key as the stores hold it: hashed, compared and ordered by its UTF-8
/// bytes (SQLite's `BINARY`, Postgres's `COLLATE "C"`), not canonically as Swift compares
/// strings.
///
/// Terms are cut from text in NFC (``SearchAnalyzer/normalize(_:)``), and two NFC strings that
/// Swift calls equal have the same bytes, so for terms the two ways agree. They differ in cost:
/// hashing a non-ASCII `String` checks its normalisation first, and a listing's analysis makes
/// a few hundred look-ups for its seventy or so terms (a third of a synthetic load's analysis,
/// before this key).
package struct SearchTerm: Hashable, Comparable, Sendable {
    /// The term.
    package let text: String

    package init(_ text: String) { self.text = text }

    /// Hashes the bytes.
    package func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Whether the bytes are the same.
    package static func == (a: Self, b: Self) -> Bool {
        a.text.utf8.count == b.text.utf8.count && compare(a, b) == 0
    }

    /// Whether `a`'s bytes sort before `b`'s. With `memcmp`: compared through `String.UTF8View`,
    /// sorting a listing's terms took a sixth of the analysis (a profile of 200,000 listings).
    package static func < (a: Self, b: Self) -> Bool { compare(a, b) < 0 }

    /// Negative, zero or positive as `a`'s bytes sort before, with or after `b`'s.
    package static func compare(_ a: Self, _ b: Self) -> Int {
        a.withBytes { x in
            b.withBytes { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : Int(memcmp(x.baseAddress!, y.baseAddress!, common))
                return order != 0 ? order : x.count - y.count
            }
        }
    }

    /// The text's UTF-8 bytes where they are stored. Not `withUTF8`, which is mutating: copying
    /// the string to call it cost more than the comparison it served.
    private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = text  // bridged text, not stored as UTF-8
        return contiguous.withUTF8(body)
    }
}
