import Testing
@testable import KeyCatDomain

@Suite("Business registration numbers")
struct BusinessRegistrationNumberTests {
    @Test("numbers with a correct check digit are accepted, hyphens or not", arguments: [
        ("220-81-62517", "2208162517"),  // NAVER Corp.
        ("124-81-00998", "1248100998"),  // Samsung Electronics
        ("1208147521", "1208147521"),    // Coupang
        ("  105-87-71311 ", "1058771311"),
    ])
    func valid(raw: String, digits: String) throws {
        let number = try BusinessRegistrationNumber(raw)
        #expect(number.digits == digits)
        #expect(number.formatted.count == 12)
    }

    @Test("a wrong check digit, a wrong length or non-digits are a validation error", arguments: [
        "220-81-62518", "124-81-00990", "1234567890", "220816251", "22081625170", "22O-81-62517", "", "２２０８１６２５１７",
    ])
    func invalid(raw: String) {
        #expect(validationField { try BusinessRegistrationNumber(raw) } == "business_number")
    }

    @Test("the ninth digit's tens carry is part of the checksum")
    func ninthDigitCarry() {
        // First nine 000000009: sum 9×5 = 45, plus 45/10 = 4 → 49, check (10 − 9) % 10 = 1.
        #expect(BusinessRegistrationNumber.checkDigit(of: [0, 0, 0, 0, 0, 0, 0, 0, 9, 0]) == 1)
        #expect((try? BusinessRegistrationNumber("0000000091")) != nil)
        #expect((try? BusinessRegistrationNumber("0000000095")) == nil)
    }

    @Test("every nine-digit prefix has exactly one valid check digit")
    func exactlyOneCheckDigit() {
        for prefix in ["123456789", "220816251", "000000000", "999999999"] {
            let valid = (0...9).filter { (try? BusinessRegistrationNumber(prefix + String($0))) != nil }
            #expect(valid.count == 1)
        }
    }

    @Test("tax service status codes map to statuses", arguments: [
        ("01", BusinessStatus.active), ("02", .suspended), ("03", .closed), ("", .unregistered), ("99", .unregistered),
    ])
    func statusCodes(code: String, status: BusinessStatus) {
        #expect(BusinessStatus(taxServiceCode: code) == status)
        if status != .unregistered || code.isEmpty { #expect(status.taxServiceCode == code) }
    }

    @Test("only an active business has no rejection reason")
    func rejectionReasons() {
        for status in BusinessStatus.allCases {
            #expect((status.rejectionReason == nil) == (status == .active))
        }
    }
}
