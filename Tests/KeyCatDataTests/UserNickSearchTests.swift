import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Operators find accounts by part of a nick, the same on every store: Latin letters in either
/// case, Hangul syllables and everything else exactly.
@Suite("Finding accounts by nick")
struct UserNickSearchTests {
    static let nicks = ["KeyCat", "keycap_fan", "김민아", "민지", "Élan", "100%키보드", "a_b"]

    /// (what is typed, the nicks found in id order)
    static let cases: [(String, [String])] = [
        ("KEY", ["KeyCat", "keycap_fan"]),
        ("cat", ["KeyCat"]),
        ("민", ["김민아", "민지"]),
        (" 김민아 ", ["김민아"]),
        ("\u{1106}\u{1175}\u{11AB}", ["김민아", "민지"]),  // 민 typed as jamo (NFD): the same syllable once normalised
        ("ㅁ", []),  // a compatibility jamo is not a syllable
        ("LAN", ["Élan"]),
        ("Élan", ["Élan"]),
        ("élan", []),  // only A–Z fold
        ("%", ["100%키보드"]),  // LIKE's wildcards are text here
        ("_", ["keycap_fan", "a_b"]),
        ("키보드", ["100%키보드"]),
        ("nobody", []),
    ]

    @Test("a nick is found by any part of it", arguments: Backend.allCases, cases)
    func find(_ backend: Backend, _ example: (String, [String])) async throws {
        let (term, expected) = example
        try await withAccounts(backend) { harness in
            for (index, nick) in Self.nicks.enumerated() { _ = try await harness.signUp("user\(index)@example.com", nick: nick) }
            let page = try await harness.accounts.listUsers(nick: term, by: .operatorConsole("test"))
            #expect(page.items.map(\.nick) == expected)
            #expect(page.nextCursor == nil)
        }
    }

    @Test("pages of a search carry on by cursor; the cursor is refused for another nick or none", arguments: Backend.allCases)
    func paging(_ backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            for (index, nick) in Self.nicks.enumerated() { _ = try await harness.signUp("user\(index)@example.com", nick: nick) }
            let admin = Principal.operatorConsole("test")
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await harness.accounts.listUsers(nick: "A", limit: PageLimit(1), cursor: cursor, by: admin)
                seen += page.items.map(\.nick)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == ["KeyCat", "keycap_fan", "Élan", "a_b"])
            let first = try await harness.accounts.listUsers(nick: "a", limit: PageLimit(1), by: admin)
            let next = try #require(first.nextCursor)
            for other in ["ke", nil] as [String?] {
                let error = await keycatError { try await harness.accounts.listUsers(nick: other, cursor: next, by: admin) }
                #expect(error?.code == .invalidCursor)
            }
            // "A" and "a" are one search: its cursor carries on.
            _ = try await harness.accounts.listUsers(nick: "a", cursor: next, by: admin)
        }
    }

    @Test("an empty or over-long term is refused naming nick; only operators search", arguments: ["", "   ", String(repeating: "가", count: 21)])
    func refused(_ term: String) async throws {
        try await withAccounts(.inMemory) { harness in
            let error = await keycatError { try await harness.accounts.listUsers(nick: term, by: .operatorConsole("test")) }
            #expect(error?.code == .validation && error?.context["field"] == "nick")
            let buyer = try await harness.signUp()
            let refused = await keycatError {
                try await harness.accounts.listUsers(nick: "kim", by: Principal(userID: buyer.id, role: .buyer))
            }
            #expect(refused?.code == .forbidden)
        }
    }
}
