import Foundation

/// A buyer's search text, checked: 1–100 characters and at most 10 words once normalised
/// (``SearchAnalyzer``). An empty or over-long query is a validation error on `q`, never a list
/// of everything.
public struct SearchQuery: Sendable, Hashable {
    /// The query as given, trimmed and in NFC.
    public let text: String
    /// The normalised words, in order.
    let words: [SearchAnalyzer.Word]

    /// The most characters a query may have.
    public static let maximumLength = 100
    /// The most words a query may have.
    public static let maximumWords = 10

    /// - Throws: `validation` on `field` (`q` by default) when the text is empty, longer than
    ///   ``maximumLength`` characters, has more than ``maximumWords`` words or none that can be
    ///   searched for (punctuation only).
    public init(_ raw: String, field: String = "q") throws(KeyCatError) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !trimmed.isEmpty else { throw .validation(field, "\(field) cannot be empty") }
        guard trimmed.count <= Self.maximumLength else {
            throw .validation(field, "\(field) must be at most \(Self.maximumLength) characters")
        }
        let words = SearchAnalyzer.words(SearchAnalyzer.normalize(trimmed))
        guard !words.isEmpty else { throw .validation(field, "\(field) has no letters or digits to search for") }
        guard words.count <= Self.maximumWords else {
            throw .validation(field, "\(field) must have at most \(Self.maximumWords) words")
        }
        text = trimmed
        self.words = words
    }

    /// The normalised words, a space between each: what the query searches for, so two texts
    /// with the same key (`갈축!` and `갈축`) are one search, and a cursor of either resumes both.
    public var key: String {
        words.map(\.text).joined(separator: " ")
    }

    /// The query without spaces, as compared with a title for the exact-phrase bonus.
    public var compact: String {
        words.map(\.text).joined()
    }

    /// The Latin words of 5–20 letters, counted as code points: those a typo is forgiven in (past
    /// 20, the spellings one edit away run into the thousands, and nobody mistypes a word that
    /// long by one letter). The spellings are built per code point (``TypoDistance``), so that is
    /// what is counted: `abcde` under 460 combining marks is five characters but 465 code points,
    /// whose 33,528 spellings no store takes as one statement's parameters.
    public var typoCandidates: [String] {
        var seen: Set<String> = []
        return Array(words.filter { $0.script == .latin && Self.typoLength.contains($0.text.unicodeScalars.count) }.map(\.text)
            .filter { seen.insert($0).inserted }.prefix(Self.maximumTypoWords))
    }

    /// The most words of a query a typo is forgiven in, the first ones written: each costs a
    /// look-up of its ~2,300 spellings one edit away, and ten of them would cost every page and
    /// every facet count 23,000.
    public static let maximumTypoWords = 2

    /// How many code points a word a typo is forgiven in has: at most about 2,300 spellings one
    /// edit away (``TypoDistance/oneEditVariants(of:)``), each a parameter of one look-up.
    public static let typoLength = 5...20

    /// The words written as initials only (ㄱㅊ): each matches the whole words with those initials.
    public var initialsWords: [String] {
        words.filter { $0.script == .jamo && Hangul.isInitialsOnly($0.text) }.map(\.text)
    }

    /// The words that may have synonyms: each word, and a Hangul word's stem.
    public var synonymKeys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(2 * words.count)
        for word in words where word.script != .jamo {
            keys.append(word.text)
            if word.script == .hangul, let stem = Hangul.stem(of: word.text, leaving: 2) { keys.append(stem) }
        }
        return keys
    }
}

/// The one-edit distance (Damerau: one letter added, removed, replaced, or two neighbours
/// swapped) that a misspelt Latin word may be from the word it means.
public enum TypoDistance {
    /// Every spelling one edit away from `word` (``isOneEdit(_:_:)``), with letters and digits
    /// and the word's own characters as what may be added or put in place: the keys a store
    /// looks a misspelt word's candidates up by. Sorted, without `word` itself.
    public static func oneEditVariants(of word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        var alphabet = Set("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
        alphabet.formUnion(scalars)
        var variants: Set<String> = []
        func add(_ candidate: [Unicode.Scalar]) { variants.insert(String(String.UnicodeScalarView(candidate))) }
        for index in scalars.indices {
            var removed = scalars
            removed.remove(at: index)
            add(removed)
            if index + 1 < scalars.count {
                var swapped = scalars
                swapped.swapAt(index, index + 1)
                add(swapped)
            }
            for letter in alphabet {
                var replaced = scalars
                replaced[index] = letter
                add(replaced)
            }
        }
        for index in 0...scalars.count {
            for letter in alphabet {
                var inserted = scalars
                inserted.insert(letter, at: index)
                add(inserted)
            }
        }
        variants.remove(word)
        return variants.filter { !$0.isEmpty }.sorted()
    }

    public static func isOneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard x != y, abs(x.count - y.count) <= 1 else { return false }
        var i = 0
        while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
        if x.count == y.count {
            if x[(i + 1)...] == y[(i + 1)...] { return true }
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...] == y[(i + 2)...]
        }
        return x.count > y.count ? x[(i + 1)...] == y[i...] : x[i...] == y[(i + 1)...]
    }
}
