import Foundation

/// A term or vocabulary key as the stores hold it: hashed, compared and ordered by its UTF-8
/// bytes (SQLite's `BINARY`, Postgres's `COLLATE "C"`), not canonically as Swift compares
/// strings.
///
/// Every term is cut from text in NFC (``SearchAnalyzer/normalize(_:)``), and two NFC strings
/// that Swift calls equal have the same bytes, so the two ways agree on what the analyser makes.
/// They differ in cost: hashing a non-ASCII `String` checks its normalisation first, and a
/// listing's analysis hashes a Hangul term a few hundred times (a third of a synthetic load's
/// analysis, before this key).
package struct SearchTerm: Hashable, Comparable, Sendable {
    package let text: String

    package init(_ text: String) { self.text = text }

    package func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.text.utf8.count == b.text.utf8.count && compare(a, b) == 0
    }

    /// Sorting a listing's terms compared them through `String.UTF8View` a sixth of the analysis
    /// (a profile of 200,000 listings); `memcmp` over the contiguous bytes costs less.
    package static func < (a: Self, b: Self) -> Bool { compare(a, b) < 0 }

    /// Negative, zero or positive as `a`'s bytes sort before, with or after `b`'s.
    private static func compare(_ a: Self, _ b: Self) -> Int {
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
