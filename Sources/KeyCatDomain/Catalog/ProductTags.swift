import Foundation

/// A listing's tags (hashtags, as the KeyCat app's posts had): at most 10, each 1–20 letters,
/// digits or `_` (and at most 60 bytes, so marks cannot pile onto a letter) once a leading `#`
/// is dropped, in NFC; repeats (compared in search's
/// normalised form, so `PBT` and `pbt` are one tag) are kept once, first spelling first.
/// Tags are searched, suggested, and matched exactly by `tag=`.
public enum ProductTags {
    /// The most tags a listing carries.
    public static let maximumCount = 10
    /// A tag's length in characters, without its `#`.
    public static let length = 1...20
    /// A tag's most bytes in UTF-8: twenty Hangul syllables.
    public static let maximumBytes = 60
    private static let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]

    /// The tags checked and cleaned.
    ///
    /// - Throws: `validation` on `tags` for more than ``maximumCount`` or a tag that is empty,
    ///   too long (characters or bytes), has a character other than a letter, a digit or `_`, or
    ///   starts with a combining mark.
    public static func validated(_ tags: [String]) throws(KeyCatError) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        for raw in tags {
            var tag = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
            if tag.hasPrefix("#") { tag.removeFirst() }
            guard length.contains(tag.count), tag.utf8.count <= maximumBytes else {
                throw .validation("tags", "a tag must be \(length.lowerBound)–\(length.upperBound) characters: «\(raw)»")
            }
            guard tag.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
                throw .validation("tags", "a tag has only letters, digits and _: «\(raw)»")
            }
            // A combining mark alone is "alphabetic" too, but it belongs to the letter before it.
            guard let first = tag.unicodeScalars.first, !Self.marks.contains(first.properties.generalCategory) else {
                throw .validation("tags", "a tag starts with a letter, a digit or _: «\(raw)»")
            }
            if seen.insert(SearchAnalyzer.normalize(tag)).inserted { result.append(tag) }
        }
        guard result.count <= maximumCount else {
            throw .validation("tags", "a listing has at most \(maximumCount) tags")
        }
        return result
    }

    /// A `tag=` filter's value in the form the index keeps it.
    ///
    /// - Throws: `validation` on `tag` when it is not a valid tag.
    public static func filterValue(_ raw: String) throws(KeyCatError) -> String {
        do throws(KeyCatError) {
            guard let tag = try validated([raw]).first else { throw KeyCatError.validation("tag", "tag cannot be empty") }
            return SearchAnalyzer.normalize(tag)
        } catch {
            throw .validation("tag", error.message)
        }
    }
}
