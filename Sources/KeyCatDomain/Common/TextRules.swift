import Foundation

/// The rules every text field a client sends passes before its own (architecture §2): normalised
/// to NFC, trimmed, at most a number of characters *and* of UTF-8 bytes, and no run of more than
/// ``maximumCombiningRun`` combining marks.
///
/// Characters are counted as people see them (grapheme clusters), which alone bounds nothing: a
/// letter followed by 400,000 combining accents is one character of 800 KB. So each field also
/// has a byte cap (four bytes a character: every character a keyboard types fits), and a run of
/// more than 30 non-starters (scalars whose canonical combining class is not 0) is refused, the
/// limit of UAX #15's Stream-Safe Text Format (https://unicode.org/reports/tr15/#Stream_Safe_Text_2),
/// which no real script needs. Text is stored in NFC, so one word is one spelling, whatever the
/// keyboard that typed it.
public enum TextRules {
    /// The longest run of combining marks (non-starters) a text may hold.
    public static let maximumCombiningRun = 30

    /// What one field allows.
    public struct Field: Sendable, Hashable {
        /// The name the validation error carries (`title`, `content`…).
        public var name: String
        /// How many characters (grapheme clusters) once trimmed.
        public var characters: ClosedRange<Int>
        /// The most UTF-8 bytes once trimmed and normalised.
        public var maximumBytes: Int
        /// Whether control characters (Unicode Cc) are refused. Fields written in paragraphs (a
        /// description, a review, a reason) keep them, as `openapi.yaml`'s patterns say; the JSON
        /// of one is at most six bytes (`\u0001`), which the worst-case page sizes count.
        public var refusesControlCharacters: Bool
        /// Which format characters (Unicode Cf) the field refuses.
        public var formatCharacters: FormatCharacters

        /// A field of `characters`, with a byte cap of four bytes a character unless given.
        public init(_ name: String, characters: ClosedRange<Int>, maximumBytes: Int? = nil, refusesControlCharacters: Bool = false,
                    formatCharacters: FormatCharacters = .allowed) {
            self.name = name
            self.characters = characters
            self.maximumBytes = maximumBytes ?? 4 * characters.upperBound
            self.refusesControlCharacters = refusesControlCharacters
            self.formatCharacters = formatCharacters
        }

        /// Whether `scalar` is a control character this field refuses.
        func refusesControl(_ scalar: Unicode.Scalar) -> Bool {
            refusesControlCharacters && scalar.properties.generalCategory == .control
        }

        /// Whether `scalar` is a format character this field refuses.
        func refusesFormat(_ scalar: Unicode.Scalar) -> Bool {
            switch formatCharacters {
            case .allowed: false
            case .refused: scalar.properties.generalCategory == .format
            case .refusedButJoiner: scalar != TextRules.zeroWidthJoiner && scalar.properties.generalCategory == .format
            }
        }
    }

    /// What a field does with format characters (Unicode general category Cf): invisible
    /// characters that change how text around them shows — zero-width spaces (U+200B), the
    /// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), byte-order marks
    /// (U+FEFF), soft hyphens (U+00AD), tags. Where people recognise a thing by its text (an
    /// email, a nick, a title, an address), one lets two spellings look alike, or makes a text
    /// show backwards (`moc.elpmaxe` shown as `example.com`), so those fields refuse them.
    public enum FormatCharacters: Sendable, Hashable {
        /// Kept (descriptions, reasons): prose pasted from elsewhere carries them harmlessly.
        case allowed
        /// Every one is refused.
        case refused
        /// Every one is refused but the zero-width joiner (U+200D), which emoji sequences
        /// are made of (👨‍👩‍👧): for prose read by people (a review).
        case refusedButJoiner
    }

    /// U+200D ZERO WIDTH JOINER, which joins emoji into one (👩‍💻).
    static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

    /// `raw` trimmed of white space and newlines at both ends and normalised to NFC, once it
    /// passes `field`'s rules.
    ///
    /// - Throws: `validation` naming the field: too many bytes, a run of more than 30 combining
    ///   marks, a control or format character where refused (a format one named in `character`,
    ///   `U+202E`), or too few or too many characters.
    public static func text(_ raw: String, _ field: Field) throws(KeyCatError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        // NFC makes a string at most three times longer (UAX #15 §9): anything longer than three
        // times the cap is refused before the work of normalising it.
        guard trimmed.utf8.count <= 3 * field.maximumBytes else { throw tooLong(field) }
        let text = trimmed.precomposedStringWithCanonicalMapping
        guard text.utf8.count <= field.maximumBytes else { throw tooLong(field) }
        guard longestCombiningRun(in: text) <= maximumCombiningRun else {
            throw KeyCatError.validation(field.name, "\(field.name) has more than \(maximumCombiningRun) combining marks in a row")
        }
        if text.unicodeScalars.contains(where: field.refusesControl) {
            throw KeyCatError.validation(field.name, "\(field.name) cannot contain control characters")
        }
        if let scalar = text.unicodeScalars.first(where: field.refusesFormat) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            throw KeyCatError(.validation, "\(field.name) cannot contain invisible format characters (\(code) here)",
                              context: ["field": field.name, "character": code])
        }
        guard field.characters.contains(text.count) else {
            let range = field.characters
            let rule = range.lowerBound == 0 ? "at most \(range.upperBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw KeyCatError.validation(field.name, "\(field.name) must be \(rule) characters")
        }
        return text
    }

    /// The longest run of consecutive non-starters (canonical combining class ≠ 0) in `text`.
    public static func longestCombiningRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.canonicalCombiningClass.rawValue != 0 {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        return longest
    }

    static func tooLong(_ field: Field) -> KeyCatError {
        KeyCatError.validation(field.name, "\(field.name) must be at most \(field.maximumBytes) bytes of UTF-8")
    }
}
