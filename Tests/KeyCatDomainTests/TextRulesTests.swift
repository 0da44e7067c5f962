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

/// Emails, nicks, titles, reviews and addresses refuse Unicode's invisible format characters
/// (category Cf), which make two texts look alike or show one backwards.
@Suite("Text rules: format characters")
struct FormatCharacterTests {
    /// Each field that refuses them, with a valid value and how to check one.
    static let checks: [(field: String, valid: String, check: @Sendable (String) throws(KeyCatError) -> Void)] = [
        ("email", "kim@example.com", { text throws(KeyCatError) in _ = try AccountRules.email(text) }),
        ("nick", "민아키보드", { text throws(KeyCatError) in _ = try AccountRules.nick(text) }),
        ("title", "Felt F99 유무선 키보드", { text throws(KeyCatError) in _ = try TextRules.text(text, ProductDraft.titleField) }),
        ("content", "타건감이 아주 좋은 키보드입니다", { text throws(KeyCatError) in _ = try TextRules.text(text, ReviewForm.contentField) }),
        ("recipient", "김민아", { text throws(KeyCatError) in
            _ = try DeliveryAddress.validated(recipient: text, phone: "01012345678", postcode: "06236", roadAddress: "테헤란로 152") }),
        ("road_address", "서울특별시 강남구 테헤란로 152", { text throws(KeyCatError) in
            _ = try DeliveryAddress.validated(recipient: "김민아", phone: "01012345678", postcode: "06236", roadAddress: text) }),
        ("detail", "12층 1201호", { text throws(KeyCatError) in
            _ = try DeliveryAddress.validated(recipient: "김민아", phone: "01012345678", postcode: "06236", roadAddress: "테헤란로 152",
                                              detail: text) }),
        ("request", "문 앞에 놓아 주세요", { text throws(KeyCatError) in
            _ = try DeliveryAddress.validated(recipient: "김민아", phone: "01012345678", postcode: "06236", roadAddress: "테헤란로 152",
                                              request: text) }),
    ]

    @Test("a zero-width space, a right-to-left override, a byte-order mark, a soft hyphen or an isolate is a 400 naming the field and the character",
          arguments: [("\u{200B}", "U+200B"), ("\u{202E}", "U+202E"), ("\u{FEFF}", "U+FEFF"), ("\u{00AD}", "U+00AD"), ("\u{2066}", "U+2066"),
                      ("\u{E0041}", "U+E0041")])
    func refused(character: String, code: String) throws {
        for (field, valid, check) in Self.checks {
            try check(valid)
            let middle = valid.index(valid.startIndex, offsetBy: valid.count / 2)
            let inside = String(valid[..<middle]) + character + String(valid[middle...])
            // Foundation trims U+200B with white space, so at either end it is dropped, not refused.
            for text in character == "\u{200B}" ? [inside] : [character + valid, inside, valid + character] {
                let error = try #require(throws: KeyCatError.self, "\(field)") { try check(text) }
                #expect(error.code == .validation && error.context["field"] == field, "\(field): \(error)")
                #expect(error.context["character"] == code, "\(field): \(error)")
            }
        }
    }

    @Test("a review keeps the zero-width joiner that emoji sequences are made of; names and titles do not")
    func joiner() throws {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(try TextRules.text("가족 모두 좋아해요 \(family)", ReviewForm.contentField).hasSuffix(family))
        #expect(throws: KeyCatError.self) { try TextRules.text("키보드 \(family)", ProductDraft.titleField) }
        #expect(throws: KeyCatError.self) { try AccountRules.nick("민아\(family)") }
        // A description, a reason, a carrier keep what prose pasted from elsewhere carries.
        #expect(try TextRules.text("가스켓\u{200B}마운트", ProductDraft.contentField) == "가스켓\u{200B}마운트")
    }
}

extension TextRules.Field {
    func with(characters: ClosedRange<Int>) -> TextRules.Field {
        TextRules.Field(name, characters: characters, maximumBytes: maximumBytes, refusesControlCharacters: refusesControlCharacters,
                        formatCharacters: formatCharacters)
    }
}

extension TextRules.Field: CustomTestStringConvertible {
    public var testDescription: String { name }
}
