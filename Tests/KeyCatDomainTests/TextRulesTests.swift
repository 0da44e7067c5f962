import Foundation
import KeyCatDomain
import Testing

/// Every text field a client sends is bounded in bytes as well as characters, stored in NFC, and
/// refuses a run of more than 30 combining marks (UAX #15's stream-safe limit).
@Suite("Text rules: bytes, NFC and combining marks")
struct TextRulesTests {
    /// Every field a client sends, with its rules.
    static let fields: [TextRules.Field] = [
        AccountRules.emailField, AccountRules.nickField, AccountRules.profileImageField,
        ProductDraft.titleField, ProductDraft.contentField, ReviewForm.contentField,
        SellerService.representativeNameField, SellerService.rejectionReasonField,
        OrderService.reasonField, OrderService.carrierField, OrderService.trackingNumberField,
    ]

    @Test("a letter with 400,000 combining accents is two characters and still refused")
    func theReportedNick() {
        let nick = "a" + String(repeating: "\u{301}", count: 400_000) + "b"
        #expect(nick.count == 2)
        #expect(throws: KeyCatError.self) { try AccountRules.nick(nick) }
        #expect(throws: KeyCatError.self) { try TextRules.text(nick, ProductDraft.contentField) }
    }

    @Test("30 combining marks in a row pass, 31 do not")
    func combiningRun() throws {
        let field = TextRules.Field("content", characters: 0...2000)
        let thirty = "x" + String(repeating: "\u{316}", count: 30)
        #expect(try TextRules.text(thirty, field).unicodeScalars.count == 31)
        let error = try #require(throws: KeyCatError.self) { try TextRules.text(thirty + "\u{316}", field) }
        #expect(error.code == .validation && error.context["field"] == "content")
        #expect(TextRules.longestCombiningRun(in: "e\u{301}\u{302} a\u{300}") == 2)
    }

    @Test("text is stored in NFC: a decomposed é is one precomposed scalar")
    func nfc() throws {
        let nick = try AccountRules.nick("  Jose\u{301}  ")
        #expect(nick == "José" && nick.unicodeScalars.count == 4)
        #expect(try TextRules.text("한글 키보드", ProductDraft.titleField) == "한글 키보드")
        // Hangul typed as conjoining jamo composes into syllables.
        #expect(try TextRules.text("\u{1112}\u{1161}\u{11AB}", ReviewForm.contentField.with(characters: 1...10)) == "한")
    }

    @Test("each field takes its limit in Hangul (3 bytes a character) and refuses as many characters of 8 bytes",
          arguments: fields)
    func byteCaps(field: TextRules.Field) throws {
        let limit = field.characters.upperBound
        let hangul = String(repeating: "가", count: min(limit, field.maximumBytes / 3))
        if field.name != "email" {
            #expect(try TextRules.text(hangul, field).utf8.count <= field.maximumBytes, "\(field.name)")
        }
        // A thumbs-up with a skin tone: one character, 8 bytes.
        let wide = String(repeating: "👍🏽", count: limit)
        #expect(wide.count == limit)
        let error = try #require(throws: KeyCatError.self) { try TextRules.text(wide, field) }
        #expect(error.context["field"] == field.name && error.message.contains("bytes"), "\(field.name): \(error.message)")
        #expect(field.maximumBytes <= 4 * limit, "\(field.name): at most four bytes a character")
    }

    @Test("a huge input is refused by its size before it is normalised")
    func hugeInput() throws {
        let huge = String(repeating: "a", count: 1 << 20)
        let error = try #require(throws: KeyCatError.self) { try TextRules.text(huge, ProductDraft.titleField) }
        #expect(error.message.contains("bytes"))
    }
}

extension TextRules.Field {
    func with(characters: ClosedRange<Int>) -> TextRules.Field {
        TextRules.Field(name, characters: characters, maximumBytes: maximumBytes, refusesControlCharacters: refusesControlCharacters)
    }
}

extension TextRules.Field: CustomTestStringConvertible {
    public var testDescription: String { name }
}
