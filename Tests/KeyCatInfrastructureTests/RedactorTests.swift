import Foundation
import Testing
@testable import KeyCatInfrastructure

@Suite("Redactor")
struct RedactorTests {
    @Test("sensitive JSON fields are masked at any depth")
    func jsonFields() {
        let body = Data(#"{"imp_key":"k","nested":{"access_token":"t"},"list":[{"imp_secret":"s"}],"amount":1000}"#.utf8)
        let text = Redactor.body(body)
        #expect(!text.contains("\"k\"") && !text.contains("\"t\"") && !text.contains("\"s\""))
        #expect(text.contains("1000"))
    }

    @Test("a buyer's words and contact fields are masked: a cancel's reason, the PG's buyer fields")
    func personalFields() {
        let body = Data(#"{"imp_uid":"imp_1","reason":"010-1234-5678로 연락","response":{"buyer_name":"김철수","buyer_tel":"01012345678","buyer_email":"a@b.kr","buyer_addr":"서울","amount":5000}}"#.utf8)
        let text = Redactor.body(body)
        for personal in ["010-1234-5678", "김철수", "01012345678", "a@b.kr", "서울"] { #expect(!text.contains(personal), "\(text)") }
        #expect(text.contains("imp_1") && text.contains("5000"))
    }

    @Test("card-like digit runs are masked in any text", arguments: [
        "4242424242424242", "4242 4242 4242 4242", "4000-0000-0000-0002",
    ])
    func cardNumbers(_ number: String) {
        #expect(Redactor.text("card \(number) used") == "card \(Redactor.mask) used")
    }

    @Test("short numbers and long numbers that are no card number are kept")
    func otherNumbers() {
        #expect(Redactor.text("amount 1000000 imp_123456789012") == "amount 1000000 imp_123456789012")
        #expect(Redactor.text("order-1767225600001") == "order-1767225600001")  // fails the Luhn check
    }

    @Test("Authorization and signature headers are masked")
    func headers() {
        let masked = Redactor.headers(["Authorization": "Bearer abc", "webhook-signature": "v1,xyz", "Accept": "json"])
        #expect(masked == ["Authorization": Redactor.mask, "webhook-signature": Redactor.mask, "Accept": "json"])
    }
}

@Suite("Standard Webhooks signature")
struct StandardWebhookSignatureTests {
    @Test("matches the Standard Webhooks reference vector")
    func referenceVector() {
        // From the standard-webhooks reference libraries' tests.
        let signature = StandardWebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
            body: Data(#"{"test": 2432232314}"#.utf8), secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }
}

@Suite("Redacting card numbers from log text")
struct RedactorScanTests {
    @Test("Luhn-valid runs of 13–19 digits are masked; other numbers stay", arguments: [
        ("card 4242424242424242 ok", "card [REDACTED] ok"),
        ("card 4242-4242-4242-4242.", "card [REDACTED]."),
        ("card 4242 4242 4242 4242", "card [REDACTED]"),
        ("order 1234567890123 left", "order 1234567890123 left"),  // 13 digits, fails Luhn
        ("ts=1767225600000 id=42", "ts=1767225600000 id=42"),
        ("short 4242 4242", "short 4242 4242"),
        ("x4000000000000002y", "x[REDACTED]y"),
        ("", ""),
    ])
    func masks(input: String, expected: String) {
        #expect(Redactor.text(input) == expected)
    }
}
