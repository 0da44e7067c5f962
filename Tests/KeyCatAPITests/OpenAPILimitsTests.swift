import Foundation
import KeyCat
import Testing

/// The limits openapi.yaml states are the ones the use cases check: each length, range and
/// count in a schema is read from the document and compared with the domain's constant, so
/// changing one without the other fails here.
@Suite("openapi.yaml states the domain's limits")
struct OpenAPILimitsTests {
    /// A property of a schema in `components/schemas`.
    static func property(_ schema: String, _ name: String) -> YAML? {
        OpenAPIContractTests.document["components"]?["schemas"]?[schema]?["properties"]?[name]
    }

    static func number(_ value: YAML?, _ key: String) -> Int64? { value?[key]?.string.flatMap { Int64($0) } }

    static func range(_ value: YAML?) -> ClosedRange<Int64>? {
        guard let low = number(value, "minimum"), let high = number(value, "maximum"), low <= high else { return nil }
        return low...high
    }

    /// The `{low,high}` repetition a trimmed-length pattern spells for `length` characters: the
    /// first and last non-space characters around `length - 2` of anything.
    static func trimmed(_ length: ClosedRange<Int>) -> String {
        "{\(max(length.lowerBound - 2, 0)),\(length.upperBound - 2)}"
    }

    static func pattern(_ schema: String, _ name: String) -> String {
        property(schema, name)?["pattern"]?.string ?? ""
    }

    @Test("a quantity is 1–99 wherever one is taken, and an order has at most 50 lines")
    func quantities() {
        let quantity = Int64(CartRules.quantityRange.lowerBound)...Int64(CartRules.quantityRange.upperBound)
        for (schema, name) in [("CartAdd", "quantity"), ("Quantity", "quantity"), ("CheckoutItem", "quantity")] {
            #expect(Self.range(Self.property(schema, name)) == quantity, "\(schema).\(name)")
        }
        #expect(Self.number(Self.property("Checkout", "items"), "maxItems") == Int64(CartRules.maximumLines))
    }

    @Test("a review's rating and length")
    func reviews() {
        let rating = Int64(ReviewForm.ratingRange.lowerBound)...Int64(ReviewForm.ratingRange.upperBound)
        #expect(Self.range(Self.property("ReviewForm", "rating")) == rating)
        #expect(Self.pattern("ReviewForm", "content").contains(Self.trimmed(ReviewForm.contentLength)))
    }

    @Test("an account's email, password, nick and profile image")
    func accounts() {
        #expect(Self.number(Self.property("SignUp", "email"), "maxLength") == Int64(AccountRules.maxEmailLength))
        for (schema, name) in [("SignUp", "password"), ("PasswordChange", "new_password")] {
            let property = Self.property(schema, name)
            #expect(Self.number(property, "minLength") == Int64(AccountRules.passwordLength.lowerBound), "\(schema).\(name)")
            #expect(Self.number(property, "maxLength") == Int64(AccountRules.passwordLength.upperBound), "\(schema).\(name)")
        }
        for schema in ["SignUp", "ProfileUpdate"] {
            // The first and last characters are matched on their own, so 0–18 between them.
            #expect(Self.pattern(schema, "nick").contains(Self.trimmed(AccountRules.nickLength)), "\(schema).nick")
        }
        // "https://", a host of at most 99 characters whose last label is no number (no IPv4
        // literal) and a path of at most 381: within 500.
        #expect(Self.pattern("ProfileUpdate", "profile_image").contains(
            #"https://(?!(?:[A-Za-z0-9-]*\.)*(?:[0-9]+|0[xX][0-9A-Fa-f]*)\.?(?![A-Za-z0-9.-]))[A-Za-z0-9][A-Za-z0-9.-]{0,98}"#))
        #expect(8 + 99 + 1 + 380 <= AccountRules.maxProfileImageLength)
    }

    @Test("a listing's title, content, delivery fee, stock and images")
    func listings() {
        for schema in ["ProductCreate", "ProductChanges"] {
            #expect(Self.pattern(schema, "title").contains("{0,\(ProductDraft.titleLength.upperBound - 2)}"), "\(schema).title")
            #expect(Self.pattern(schema, "content").contains(Self.trimmed(0...ProductDraft.maximumContentLength)), "\(schema).content")
            // The default bound: a shop that configures another serves a document of its own.
            #expect(Self.range(Self.property(schema, "delivery_fee")) == 0...ProductDraft.defaultMaximumDeliveryFee.won, "\(schema).delivery_fee")
            let stock = Int64(ProductDraft.stockRange.lowerBound)...Int64(ProductDraft.stockRange.upperBound)
            #expect(Self.range(Self.property(schema, "stock")) == stock, "\(schema).stock")
        }
        #expect(Self.number(Self.property("ProductCreate", "images"), "maxItems") == Int64(ImageRules.maximumPerProduct))
    }

    @Test("a cancellation's or refund's reason")
    func reasons() {
        for (schema, name) in [("Reason", "reason"), ("RefundRequest", "reason")] {
            #expect(Self.pattern(schema, name).contains(Self.trimmed(OrderService.reasonLength)), "\(schema).\(name)")
        }
        #expect(Self.number(Self.property("RefundRequest", "amount"), "minimum") == 1)
    }

    @Test("an imp_uid has the domain's pattern, in a confirm and in a webhook body")
    func impUIDs() {
        #expect(Self.pattern("Confirm", "imp_uid") == PaymentRules.impUIDPattern)
        #expect(Self.pattern("Webhook", "imp_uid") == PaymentRules.impUIDPattern)
    }

    @Test("a page's limit")
    func pages() {
        let limit = OpenAPIContractTests.document["components"]?["parameters"]?["Limit"]?["schema"]
        #expect(Self.range(limit) == Int64(PageLimit.range.lowerBound)...Int64(PageLimit.range.upperBound))
    }

    @Test("every text field a client sends states its byte cap, and it is the domain's", arguments: [
        ("SignUp", "email", AccountRules.emailField), ("SignUp", "nick", AccountRules.nickField),
        ("ProfileUpdate", "nick", AccountRules.nickField), ("ProfileUpdate", "profile_image", AccountRules.profileImageField),
        ("ProductCreate", "title", ProductDraft.titleField), ("ProductCreate", "content", ProductDraft.contentField),
        ("ProductChanges", "title", ProductDraft.titleField), ("ProductChanges", "content", ProductDraft.contentField),
        ("ReviewForm", "content", ReviewForm.contentField),
        ("SellerApplicationForm", "representative_name", SellerService.representativeNameField),
        ("Rejection", "reason", SellerService.rejectionReasonField),
        ("Reason", "reason", OrderService.reasonField), ("RefundRequest", "reason", OrderService.reasonField),
        ("Ship", "carrier", OrderService.carrierField), ("Ship", "tracking_number", OrderService.trackingNumberField),
    ])
    func byteCaps(schema: String, name: String, field: TextRules.Field) {
        #expect(Self.number(Self.property(schema, name), "x-keycat-max-bytes") == Int64(field.maximumBytes), "\(schema).\(name)")
    }

    @Test("a field that refuses format characters says so, and its pattern leaves out the same ones as the nick's", arguments: [
        ("SignUp", "email", AccountRules.emailField), ("SignUp", "nick", AccountRules.nickField),
        ("ProductCreate", "title", ProductDraft.titleField), ("ProductChanges", "title", ProductDraft.titleField),
        ("ReviewForm", "content", ReviewForm.contentField),
        ("AddressForm", "recipient", AddressRules.recipientField), ("AddressForm", "road_address", AddressRules.roadAddressField),
        ("AddressForm", "detail", AddressRules.detailField), ("AddressForm", "request", AddressRules.requestField),
        ("AddressChanges", "recipient", AddressRules.recipientField), ("AddressChanges", "road_address", AddressRules.roadAddressField),
        ("AddressChanges", "detail", AddressRules.detailField), ("AddressChanges", "request", AddressRules.requestField),
    ])
    func formatCharacters(schema: String, name: String, field: TextRules.Field) {
        #expect(field.formatCharacters != .allowed, "\(schema).\(name)")
        let property = Self.property(schema, name)
        #expect(property?["description"]?.string?.contains("format characters") == true, "\(schema).\(name)")
        guard field.name != "email" else { return }  // format: email, no pattern
        // The zero-width joiner U+200D is the one a review keeps.
        let refused = field.formatCharacters == .refused ? #"\u200b-\u200f\u202a-\u202e"# : #"\u200b\u200c\u200e\u200f\u202a-\u202e"#
        #expect(Self.pattern(schema, name).contains(refused + #"\u2060-\u2064\u2066-\u206f\ufeff"#), "\(schema).\(name)")
    }

    /// The pattern of a parameter in `components/parameters`.
    static func parameterPattern(_ name: String) -> String {
        OpenAPIContractTests.document["components"]?["parameters"]?[name]?["schema"]?["pattern"]?.string ?? ""
    }

    @Test("the search text's and the tag's patterns admit Korean under ECMA-262, as the server does", arguments: [
        ("SearchText", ["갈축", " 기계식 키보드 ", "GATER", "75%", "ㄱㅊ", "Keychron 키크론"], ["", "  ", "!!", "%_-", "\u{0}"]),
        ("SearchTag", ["갈축", "#갈축", "저소음_키보드", "PBT", String(repeating: "가", count: 20)],
         ["", "#", "a b", "a,b", "갈축!", String(repeating: "가", count: 21)]),
    ])
    func searchPatterns(name: String, accepted: [String], refused: [String]) throws {
        let pattern = Self.parameterPattern(name)
        // OpenAPI reads a pattern as ECMA-262 without the `u` flag, where these classes are
        // ASCII only: `\w` there would refuse every Korean word the server searches for.
        for shorthand in [#"\w"#, #"\W"#, #"\d"#, #"\D"#, #"\b"#, #"\B"#] {
            #expect(!pattern.contains(shorthand), "\(name) uses \(shorthand)")
        }
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        for text in accepted { #expect(matches(text), "\(name) refuses \(text)") }
        for text in refused { #expect(!matches(text), "\(name) admits \(text)") }
    }
}
