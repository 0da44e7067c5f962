import Foundation
import Testing
@testable import KeyCat

/// The log-in budget lives in the database: every process serving one file shares it.
@Suite("Log-in throttling across processes")
struct LogInThrottleSharingTests {
    @Test("two KeyCats on one database share one budget per email, and the refusal maps to 429 with Retry-After")
    func sharedBudget() async throws {
        try await withKeyCat { first, clock, path in
            _ = try first.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            var configuration = KeyCat.Configuration(databasePath: path)
            configuration.clock = clock
            configuration.passwordIterations = 1_000
            let second = try KeyCat.open(configuration)
            defer { second.close() }
            for attempt in 1...10 {
                let server = attempt.isMultiple(of: 2) ? first : second
                #expect(throws: KeyCatError.self) { try server.accounts.logIn(email: "kim@example.com", password: "wrong-guess-\(attempt)") }
            }
            for server in [first, second] {
                do {
                    _ = try server.accounts.logIn(email: "kim@example.com", password: "keycat2026", client: "203.0.113.9")
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

    @Test("throttling can be turned off")
    func off() async throws {
        try await withKeyCat(configure: { $0.logInThrottle = nil }) { keycat, _, _ in
            _ = try keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            for _ in 1...15 {
                #expect(throws: KeyCatError.self) { try keycat.accounts.logIn(email: "kim@example.com", password: "wrong-guess-1") }
            }
            _ = try keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026")
        }
    }
}
