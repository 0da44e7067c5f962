import Foundation

/// What a buyer has typed so far in the search box, checked, with the keys the vocabulary
/// (``SearchAnalyzer/vocabulary(title:tags:)``) is completed on (docs/search.md "Suggestions").
///
/// The text is completed as a prefix of an entry's jamo spelling, so a Latin word completes
/// case-insensitively (`gater` → Gateron) and a Hangul syllable sequence completes however far
/// its last syllable is typed (`기계ㅅ` → 기계식); a last syllable with a final consonant is also
/// tried with that consonant opening the next syllable (`갈` → 갈축 and 가로). Text of initial
/// consonants only completes the words with those initials (`ㄱㅊ` → 갈축).
public struct SuggestionQuery: Sendable, Hashable {
    /// The text as typed, trimmed and in NFC.
    public let text: String
    /// How many suggestions to give, 1–``maximumLimit``.
    public let limit: Int
    /// The spellings an entry's spelling may start with: the text's own, and the one with its
    /// last final consonant reopened when there is one.
    public let spellings: [String]
    /// The initials an entry's initials may start with, when the text is initials only.
    public let initials: String?

    /// The most characters the text may have.
    public static let maximumLength = SearchQuery.maximumLength
    /// The most suggestions one request gives.
    public static let maximumLimit = 10
    /// The most vocabulary entries a store reads per key, nearest in spelling first: what keeps
    /// a one-letter prefix over a large vocabulary as cheap as a long one.
    public static let candidateLimit = 500

    /// A control character (`%00`, `%1F`) is a break between words, as it is to the analyser of
    /// the list's `q` (``SearchAnalyzer``), so both stores read the same text: Postgres refuses a
    /// NUL in a parameter, SQLite would compare it.
    ///
    /// - Throws: `validation` on `q` when the text is empty once control characters are spaces
    ///   and it is trimmed, or longer than ``maximumLength`` characters; on `limit` outside
    ///   1–``maximumLimit``.
    public init(_ raw: String, limit: Int = maximumLimit) throws(KeyCatError) {
        let trimmed = Self.spacingControls(raw).trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !trimmed.isEmpty else { throw .validation("q", "q cannot be empty") }
        guard trimmed.count <= Self.maximumLength else {
            throw .validation("q", "q must be at most \(Self.maximumLength) characters")
        }
        guard (1...Self.maximumLimit).contains(limit) else {
            throw .validation("limit", "limit must be between 1 and \(Self.maximumLimit)")
        }
        let key = SearchAnalyzer.normalize(trimmed)
        text = trimmed
        self.limit = limit
        spellings = [Hangul.spelling(key)] + (Hangul.spellingWithFinalReopened(key).map { [$0] } ?? [])
        initials = Hangul.isInitialsOnly(key) ? key : nil
    }

    /// `text` with each control character (general category Cc) a space.
    private static func spacingControls(_ text: String) -> String {
        let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }
}

/// A completion of what a buyer is typing: a word of the listings' titles, a tag, or a title.
public struct SearchSuggestion: Sendable, Hashable {
    public typealias Kind = SearchAnalyzer.VocabularyEntry.Kind

    /// The entry as first written (`Gateron`, `갈축`, a whole title).
    public var text: String
    public var kind: Kind
    /// How many listings have it.
    public var listings: Int

    public init(text: String, kind: Kind, listings: Int) {
        self.text = text
        self.kind = kind
        self.listings = listings
    }

    /// The suggestions to show from a store's candidates: words and tags before titles (a
    /// title is one listing, a word a way into many), the more listings first, a tag before a
    /// word with as many, then by text; a word that is also a tag once, at its better place.
    public static func ranked(_ candidates: [SearchSuggestion], limit: Int) -> [SearchSuggestion] {
        func rank(_ suggestion: SearchSuggestion) -> (Int, Int, Int) {
            (suggestion.kind == .title ? 1 : 0, -suggestion.listings, suggestion.kind == .tag ? 0 : 1)
        }
        // One candidate has nothing to be ordered or kept once against, and a longer prefix often
        // has only one.
        guard candidates.count > 1 else { return Array(candidates.prefix(limit)) }
        let ordered = candidates.sorted { a, b in
            let (x, y) = (rank(a), rank(b))
            return x != y ? x < y : a.text < b.text
        }
        // At most `limit` (10) are kept, so each is looked for among those before it.
        var kept: [(isTitle: Bool, key: String)] = []
        var result: [SearchSuggestion] = []
        for suggestion in ordered where result.count < limit {
            let key = (isTitle: suggestion.kind == .title, key: SearchAnalyzer.normalize(suggestion.text))
            if !kept.contains(where: { $0 == key }) {
                kept.append(key)
                result.append(suggestion)
            }
        }
        return result
    }
}
