import Foundation

/// How search reads text, the same way for a listing being indexed and for a query, so that
/// both stores (and the in-memory reference) match by the same terms. docs/search.md states
/// the contract this implements; `SearchContractTests` hold it to its table.
///
/// Text is put in NFC, Latin letters are lowercased and full-width forms folded, and it is cut
/// into words: runs of Hangul syllables, runs of letters and digits (a `%` after digits stays:
/// `75%`), and runs of lone jamo (ㄱㅊ). Everything else separates words. A listing's words
/// become **terms**:
///
/// - a Hangul word gives its **syllable bigrams** (기계식 → 기계, 계식), as Lucene's CJK analysis
///   does, so two-syllable words (갈축) are whole terms and a compound matches with or without
///   its spaces: across a space between two Hangul words the bigram is indexed too (기계식 키보드
///   → 식키), which is what 기계식키보드 asks for. Titles and tags also give single syllables;
/// - a Hangul word also gives itself whole, `=키보드`, and its stem without a trailing particle
///   (키보드를 → `=키보드`, 축이 → `=축`): whole words rank above parts of words;
/// - a Latin word or model code gives itself (`gateron`, `k200`, `75%`, and `75` beside it);
/// - a tag gives `#tag` (the exact `tag=` filter) besides its words.
///
/// Each term carries the fields it occurs in as bits: title 8, tag 4, spec 2, content 1, so a
/// title match outweighs any mix of the others.
public enum SearchAnalyzer {
    /// Bumped whenever the terms a text gives change: listings indexed by an older version are
    /// indexed again (`keycat-admin search reindex`, and on opening for writes).
    public static let version = 1

    /// Where a word was found, as the weight it lends its terms.
    public enum Field: Int, Sendable, CaseIterable {
        case title = 8
        case tag = 4
        case spec = 2
        case content = 1
    }

    /// A word of text after normalisation.
    struct Word: Sendable, Hashable {
        enum Script: Sendable, Hashable {
            /// Hangul syllables.
            case hangul
            /// Latin letters, digits and other alphabetic scripts.
            case latin
            /// Lone jamo (ㄱㅊ), typed as initials.
            case jamo
        }
        var script: Script
        var text: String
        /// A Hangul word separated from the Hangul word before it only by white space.
        var followsHangulAcrossSpace: Bool
    }

    /// Text in NFC with Latin lowercased and full-width ASCII folded: what queries and stored
    /// terms are compared in.
    public static func normalize(_ text: String) -> String {
        if let plain = normalizedPlain(text) { return plain }
        var result = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            var scalar = scalar
            if (0xFF01...0xFF5E).contains(scalar.value) { scalar = Unicode.Scalar(scalar.value - 0xFEE0)! }
            if scalar.properties.isUppercase || scalar.properties.changesWhenLowercased {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The words of normalised text, in order.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var script: Word.Script?
        var gapIsSpace = true
        var gapSeen = false
        var lastWasHangul = false
        func flush(_ end: Int) {
            guard let done = script, start < end else { return }
            let follows = done == .hangul && lastWasHangul && gapSeen && gapIsSpace
            words.append(Word(script: done, text: string(scalars[start..<end]), followsHangulAcrossSpace: follows))
            lastWasHangul = done == .hangul
            script = nil
            gapSeen = false
            gapIsSpace = true
        }
        for (index, scalar) in scalars.enumerated() {
            let kind: Word.Script?
            if Hangul.isSyllable(scalar) {
                kind = .hangul
            } else if Hangul.isCompatibilityJamo(scalar) {
                kind = .jamo
            } else if isLetterOrDigit(scalar) || (scalar == "%" && script == .latin && index > start && isDigit(scalars[index - 1])) {
                kind = .latin
            } else {
                kind = nil
            }
            if kind != script { flush(index) }
            guard let kind else {
                gapSeen = true
                if !isWhitespace(scalar) { gapIsSpace = false }
                continue
            }
            if script == nil { start = index }
            script = kind
        }
        flush(scalars.count)
        // A word directly after another of another script (갈축K200) follows no space.
        return words
    }

    // MARK: Indexing

    /// The terms a listing is found by, each with the fields it occurs in (``Field`` bits).
    public static func terms(title: String, content: String, tags: [String], spec: KeyboardSpec) -> [String: Int] {
        // Terms differ as bytes; two that Swift would call equal (not NFC: none the analyser
        // makes) share their fields rather than trap.
        let terms = gatheredTerms(title: title, content: content, tags: tags, spec: spec)
        return Dictionary(terms.lazy.map { ($0.key.text, $0.value) }, uniquingKeysWith: |)
    }

    /// ``terms(title:content:tags:spec:)`` in the order of `search_terms`' key, by their UTF-8
    /// bytes: what the index writes.
    package static func sortedTerms(title: String, content: String, tags: [String], spec: KeyboardSpec) -> [(term: String, weight: Int)] {
        gatheredTerms(title: title, content: content, tags: tags, spec: spec).sorted { $0.key < $1.key }
            .map { (term: $0.key.text, weight: $0.value) }
    }

    /// The terms, gathered without hashing a `String` (``SearchTerm``).
    private static func gatheredTerms(title: String, content: String, tags: [String], spec: KeyboardSpec) -> [SearchTerm: Int] {
        var terms: [SearchTerm: Int] = Dictionary(minimumCapacity: 128)
        add(title, .title, to: &terms)
        for tag in tags {
            let normalized = normalize(tag)
            terms[SearchTerm("#" + normalized), default: 0] |= Field.tag.rawValue
            add(normalized, .tag, to: &terms)
        }
        add(specText(spec), .spec, to: &terms)
        add(content, .content, to: &terms)
        return terms
    }

    /// The longest term indexed, in UTF-8 bytes: a whole Hangul word of 40 syllables, a Latin
    /// word of 120 letters. Longer words are still found by their bigrams (Hangul) or not at
    /// all (nobody types them); the bound keeps every key well inside Postgres's B-tree entry
    /// limit (2,704 bytes), so both stores accept the same listings.
    public static let maximumTermBytes = 121

    private static func add(_ text: String, _ field: Field, to terms: inout [SearchTerm: Int]) {
        let weight = field.rawValue
        func mark(_ term: String) { terms[SearchTerm(term), default: 0] |= weight }
        var previous: Unicode.Scalar?
        for word in words(normalize(text)) {
            switch word.script {
            case .hangul:
                let syllables = Array(word.text.unicodeScalars)
                if word.followsHangulAcrossSpace, let last = previous {
                    mark(string([last, syllables[0]]))
                }
                if field == .title || field == .tag {
                    for syllable in syllables { mark(String(syllable)) }
                }
                for index in syllables.indices.dropLast() {
                    mark(string(syllables[index...index + 1]))
                }
                if word.text.utf8.count < maximumTermBytes {
                    mark("=" + word.text)
                    if let stem = Hangul.stem(of: word.text, leaving: 1) { mark("=" + stem) }
                }
                previous = syllables.last
            case .latin:
                guard word.text.utf8.count <= maximumTermBytes else {
                    previous = nil
                    continue
                }
                mark(word.text)
                // A Latin word is letters and digits, and `%` only after a digit: its last
                // character is `%` exactly when its last byte is.
                if word.text.utf8.last == UInt8(ascii: "%") {
                    mark(String(decoding: word.text.utf8.dropLast(), as: UTF8.self))
                }
                previous = nil
            case .jamo:
                previous = nil
            }
        }
    }

    /// What a keyboard's spec says, in the words buyers search by: the stored English values and
    /// their Korean names.
    static func specText(_ spec: KeyboardSpec) -> String {
        var parts: [String] = []
        switch spec.input {
        case .mechanical?: parts.append("mechanical 기계식")
        case .capacitive?: parts.append("capacitive 무접점")
        case .membrane?: parts.append("membrane 멤브레인")
        case .optical?: parts.append("optical 광축")
        case .scissor?: parts.append("scissor 펜타그래프")
        case nil: break
        }
        switch spec.connection {
        case .wired?: parts.append("wired 유선")
        case .wireless?: parts.append("wireless 무선")
        case .bluetooth?: parts.append("bluetooth 블루투스 무선")
        case .multi?: parts.append("multi 유무선 블루투스")
        case nil: break
        }
        if spec.pcb == .hotSwap { parts.append("hotswap 핫스왑") }
        switch spec.switchType {
        case .linear?: parts.append("linear 리니어")
        case .tactile?: parts.append("tactile 택타일")
        case .clicky?: parts.append("clicky 클릭")
        case nil: break
        }
        switch spec.layout {
        case .fullSize?: parts.append("풀배열 104")
        case .tenkeyless?: parts.append("tkl 텐키리스 87")
        case .seventyFivePercent?: parts.append("75% 75배열")
        case .sixtyFivePercent?: parts.append("65% 65배열")
        case .sixtyPercent?: parts.append("60% 60배열")
        case .other?, nil: break
        }
        if let profile = spec.keycapProfile { parts.append(profile.rawValue) }
        if spec.backlight == true { parts.append("rgb 백라이트") }
        return parts.joined(separator: " ")
    }

    /// One entry of the vocabulary the as-you-type box completes from.
    public struct VocabularyEntry: Sendable, Hashable, Comparable {
        public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
            case word, tag, title
        }
        public var kind: Kind
        /// As first written (`Gateron`).
        public var display: String
        /// The normalised form it is kept and compared under (`gateron`).
        public var key: String

        public init(kind: Kind, display: String, key: String) {
            self.kind = kind
            self.display = display
            self.key = key
        }

        /// The key's jamo spelling, which a partly typed word is a prefix of.
        public var spelling: String { Hangul.spelling(key) }
        /// The initials of an all-Hangul key, nil otherwise.
        public var initials: String? { kind == .title ? nil : Hangul.initials(of: key) }

        /// By key, then kind, each as its UTF-8 bytes: the order of `search_words`' key in both
        /// stores, which writers take its rows' locks in.
        public static func < (a: Self, b: Self) -> Bool { precedes((a.key, a.kind.rawValue), (b.key, b.kind.rawValue)) }

        /// Whether `a` comes before `b` in `search_words`' key, (word, kind), each compared by
        /// its bytes: the one order every writer of the vocabulary's counts takes its rows in.
        package static func precedes(_ a: (key: String, kind: String), _ b: (key: String, kind: String)) -> Bool {
            let order = SearchTerm.compare(SearchTerm(a.key), SearchTerm(b.key))
            return order < 0 || order == 0 && SearchTerm(a.kind) < SearchTerm(b.kind)
        }
    }

    /// The entries a listing lends the as-you-type box: its title, its title's words of two
    /// characters or more as written (Hangul and Latin), and its tags, in key order
    /// (the order writers lock them in), each key and kind once, as first written (two tags
    /// that differ only in case are one entry, as ``ProductTags`` keeps one of them).
    public static func vocabulary(title: String, tags: [String]) -> [VocabularyEntry] {
        var entries: [VocabularyEntry] = []
        let title = composed(title)
        entries.append(VocabularyEntry(kind: .title, display: title, key: normalize(title)))
        // Words as written: a title's nouns rarely carry particles, and a noun ending in a
        // particle-like syllable (레트로, 고양이) must complete and abbreviate whole.
        for word in words(title) where word.script != .jamo {
            let key = normalize(word.text)
            if word.text.unicodeScalars.count >= 2, key.utf8.count <= maximumTermBytes {
                entries.append(VocabularyEntry(kind: .word, display: word.text, key: key))
            }
        }
        for tag in tags {
            let tag = composed(tag)
            entries.append(VocabularyEntry(kind: .tag, display: tag, key: normalize(tag)))
        }
        // Each key and kind once, as first written (a listing's tags already differ by key:
        // ``ProductTags``). Sorted and compared as bytes, not put in a `Set`, whose hashing of
        // Korean text checks its normalisation each time.
        let order = entries.indices.sorted { a, b in entries[a] < entries[b] || !(entries[b] < entries[a]) && a < b }
        var result: [VocabularyEntry] = []
        result.reserveCapacity(entries.count)
        for index in order where result.last.map({ $0 < entries[index] }) ?? true { result.append(entries[index]) }
        return result
    }
}
