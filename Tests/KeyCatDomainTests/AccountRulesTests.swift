import Foundation
import Testing
@testable import KeyCatDomain

@Suite("Account rules")
struct AccountRulesTests {
    @Test("emails are trimmed and case-folded", arguments: [
        ("Kim@Example.COM", "kim@example.com"),
        ("  lee.minji+keys@mail.co.kr \n", "lee.minji+keys@mail.co.kr"),
    ])
    func validEmails(raw: String, expected: String) throws {
        #expect(try AccountRules.email(raw) == expected)
    }

    @Test("malformed emails are a validation error on email", arguments: [
        "", "kim", "kim@", "@example.com", "kim@example", "kim@@example.com", "kim lee@example.com",
        "kim@.com", "kim@example.", String(repeating: "a", count: 250) + "@example.com",
        "ki\u{0}m@example.com", "kim@exam\u{1B}ple.com", "kim\u{7F}@example.com",
        // Where withdrawn accounts keep their place (AccountRules.withdrawnEmail): no mail reaches it.
        "user-7@withdrawn.invalid", "kim@Example.INVALID",
    ])
    func invalidEmails(raw: String) {
        #expect(validationField { try AccountRules.email(raw) } == "email")
    }

    @Test("nicks of 2 to 20 characters pass, trimmed", arguments: ["키캣", "ab", String(repeating: "n", count: 20), " spaced nick ", "엄지👍🏻"])
    func validNicks(raw: String) throws {
        #expect(try AccountRules.nick(raw) == raw.trimmingCharacters(in: .whitespaces))
    }

    @Test("nicks outside 2 to 20 characters or with control or format characters fail", arguments: [
        "", "a", "  b  ", String(repeating: "n", count: 21), "tab\there", "soft\u{AD}hyphen", "zero\u{200B}width",
        "tag\u{E0041}",
    ])
    func invalidNicks(raw: String) {
        #expect(validationField { try AccountRules.nick(raw) } == "nick")
    }

    @Test("passwords of 8 to 64 characters with a letter and a digit pass", arguments: [
        "abcdefg1", "1234567a", String(repeating: "a", count: 63) + "1", "비밀번호는안전해요1",
        // Code points count: four accented letters written with combining marks are eight.
        "e\u{301}e\u{301}e\u{301}1\u{301}", "ab\r\ncd1\r\n",
    ])
    func validPasswords(password: String) throws {
        #expect(try AccountRules.password(password) == password)
    }

    @Test("passwords that are too short, too long, or lack a letter or a digit fail", arguments: [
        "abc1234", String(repeating: "a", count: 64) + "1", "abcdefgh", "12345678", "",
        String(repeating: "e\u{301}", count: 32) + "1",
    ])
    func invalidPasswords(password: String) {
        let error = validationError { try AccountRules.password(password) }
        #expect(error?.context["field"] == "password")
        #expect(error.map { !$0.message.contains(password) || password.isEmpty } == true)
    }

    @Test("phones are normalised to digits", arguments: [
        ("010-1234-5678", "01012345678"), ("02 345 6789", "023456789"), ("01098765432", "01098765432"),
    ])
    func validPhones(raw: String, expected: String) throws {
        #expect(try AccountRules.phone(raw) == expected)
    }

    @Test("phones that are not Korean numbers fail", arguments: ["", "12345678", "010-1234-567890", "010-abcd-5678", "+82-10-1234-5678"])
    func invalidPhones(raw: String) {
        #expect(validationField { try AccountRules.phone(raw) } == "phone")
    }

    @Test("birthdays must lie between 1900 and today")
    func birthdays() throws {
        let today = try CalendarDate(year: 2026, month: 1, day: 1)
        #expect(try AccountRules.birthday(CalendarDate(year: 1995, month: 5, day: 17), today: today).year == 1995)
        #expect(try AccountRules.birthday(today, today: today) == today)
        #expect(validationField { try AccountRules.birthday(CalendarDate(year: 2026, month: 1, day: 2), today: today) } == "birthday")
        #expect(validationField { try AccountRules.birthday(CalendarDate(year: 1899, month: 12, day: 31), today: today) } == "birthday")
    }

    @Test("profile image references are 1 to 500 characters without spaces")
    func profileImages() throws {
        #expect(try AccountRules.profileImage(" https://cdn.example.com/users/7/avatar.webp ") == "https://cdn.example.com/users/7/avatar.webp")
        #expect(try AccountRules.profileImage("https://cdn.example.com") == "https://cdn.example.com")
        for notHTTPS in ["images/users/7/avatar.webp", "http://cdn.example.com/a.png", "javascript:alert(1)", "data:image/png;base64,AAAA",
                         "https:///etc/passwd", "HTTPS://cdn.example.com/a.png", "https://", "https://[::1]/a.png", "https://cdn.example.com:8443/a.png",
                         "https://user@cdn.example.com/a.png", "https://-cdn/a.png"] {
            #expect(validationField { try AccountRules.profileImage(notHTTPS) } == "profile_image", "\(notHTTPS)")
        }
        #expect(validationField { try AccountRules.profileImage("") } == "profile_image")
        #expect(validationField { try AccountRules.profileImage("a b") } == "profile_image")
    }

    @Test("a profile image's host is no IP literal, in any form a browser reads as one", arguments: [
        "https://127.0.0.1/a.png", "https://127.1/", "https://2130706433/", "https://0x7f000001/", "https://0X7F.0.0.1/a.png",
        "https://0177.0.0.1/", "https://127.0.0.1./a.png", "https://10.0.0.0x1", "https://example.0x", "https://1.2.3.4",
        "https://[::1]/", "https://[::ffff:127.0.0.1]/a.png", "https://[fe80::1%25eth0]/", "https://::1/",
    ])
    func profileImageIPLiterals(url: String) {
        #expect(validationField { try AccountRules.profileImage(url) } == "profile_image", "\(url)")
    }

    @Test("a host name with digits in it is still a host name", arguments: [
        "https://cdn1.example.com/a.png", "https://127.0.0.1.example.com/a.png", "https://0x7f.example/a.png", "https://1e100.net/",
        "https://img.0xcafe.io/a.png", "https://2130706433.example/",
    ])
    func profileImageHostsWithDigits(url: String) throws {
        #expect(try AccountRules.profileImage(url) == url)
        #expect(validationField { try AccountRules.profileImage(String(repeating: "x", count: 501)) } == "profile_image")
    }

    @Test("calendar dates parse YYYY-MM-DD and refuse days that do not exist", arguments: [
        ("2024-02-29", true), ("2025-02-29", false), ("2026-13-01", false), ("2026-1-01", false), ("20260101", false),
        ("1999-12-31", true),
    ])
    func calendarDates(text: String, valid: Bool) {
        let parsed = try? CalendarDate(iso8601: text)
        #expect((parsed != nil) == valid)
        if let parsed { #expect(parsed.description == text) }
    }
}

/// The `field` of the validation error `body` throws, or nil.
func validationField(_ body: () throws -> some Any) -> String? {
    validationError(body)?.context["field"]
}

/// The validation error `body` throws, or nil when it throws nothing or something else.
func validationError(_ body: () throws -> some Any) -> KeyCatError? {
    do {
        _ = try body()
        return nil
    } catch {
        guard let error = error as? KeyCatError, error.code == .validation else { return nil }
        return error
    }
}
