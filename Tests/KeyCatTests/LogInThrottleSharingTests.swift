import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// The log-in budget lives in the database: every process serving one database shares it, on
/// either store.
@Suite("Log-in throttling across processes")
struct LogInThrottleSharingTests {
    @Test("two KeyCats on one database share one budget per email and client, and the refusal maps to 429 with Retry-After",
          arguments: TestStore.allCases)
    func sharedBudget(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let first = shop.keycat
            _ = try await first.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let second = try await KeyCat.open(first.configuration)
            defer { second.close() }
            for attempt in 1...10 {
                let server = attempt.isMultiple(of: 2) ? first : second
                await #expect(throws: KeyCatError.self) {
                    try await server.accounts.logIn(email: "kim@example.com", password: "wrong-guess-\(attempt)", client: "203.0.113.9")
                }
            }
            for server in [first, second] {
                do {
                    _ = try await server.accounts.logIn(email: "kim@example.com", password: "keycat2026", client: "203.0.113.9")
                    Issue.record("the eleventh attempt was not throttled")
                } catch {
                    #expect((error as? KeyCatError)?.code == .rateLimited)
                    let response = HTTPErrorResponse(error)
                    #expect(response.status == 429)
                    #expect(response.headers["Retry-After"] == "900")
                }
            }
        }
    }

    @Test("throttling can be turned off", arguments: TestStore.allCases)
    func off(_ store: TestStore) async throws {
        try await TestShop.with(store, configure: { $0.logInThrottle = nil }) { shop in
            let keycat = shop.keycat
            _ = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            for _ in 1...15 {
                await #expect(throws: KeyCatError.self) { try await keycat.accounts.logIn(email: "kim@example.com", password: "wrong-guess-1") }
            }
            _ = try await keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026")
        }
    }
}
