import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Text an attacker chooses reaches every store as a bound parameter: stored byte for byte or
/// refused with a typed error, the same on every store, and a refusal changes nothing.
@Suite("Hostile input on every store")
struct HostileInputStoreTests {
    /// Quotes, SQL comment and terminator, a 30 KB string, bytes that are not UTF-8 (decoded to
    /// U+FFFD, as every `String` from bytes is), and a NUL character.
    static let nicks = [
        "o'neil", "x'); DROP TABLE users;--", String(repeating: "키", count: 10_000),
        String(decoding: [0x6B, 0xC3, 0x28, 0xFF], as: UTF8.self), "ki\u{0}m",
    ]

    /// What each nick did: nil when stored (and read back equal), else the error's code.
    static func outcomes(_ backend: Backend) async throws -> [KeyCatError.Code?] {
        var codes: [KeyCatError.Code?] = []
        try await withAccounts(backend) { harness in
            for (index, nick) in nicks.enumerated() {
                let email = "user\(index)@example.com"
                do {
                    let user = try await harness.signUp(email, nick: nick)
                    await #expect(try harness.users.find(user.id)?.nick == nick, "stored byte for byte on \(backend)")
                    codes.append(nil)
                } catch let error as KeyCatError {
                    codes.append(error.code)
                    // The refusal wrote nothing: the email is still free.
                    await #expect(try harness.signUp(email, nick: "clean\(index)").nick == "clean\(index)")
                }
            }
        }
        return codes
    }

    @Test("hostile text is stored as given or refused with the same typed error; NUL is a validation error on Postgres",
          arguments: Backend.allCases)
    func sameOutcomes(_ backend: Backend) async throws {
        let reference = try await Self.outcomes(.inMemory)
        let outcomes = try await Self.outcomes(backend)
        #expect(!outcomes.contains(.storage), "no store fails with a storage error")
        let nul = Self.nicks.firstIndex(of: "ki\u{0}m")!
        for index in Self.nicks.indices where index != nul {
            #expect(outcomes[index] == reference[index], "\(Self.nicks[index].prefix(20)) on \(backend)")
        }
        // Postgres cannot store NUL in text; it must say so as bad input, as the others say
        // whatever they say.
        if backend == .postgres {
            #expect(outcomes[nul] == reference[nul] || outcomes[nul] == .validation)
        } else {
            #expect(outcomes[nul] == reference[nul])
        }
    }

    @Test("an email with a NUL is refused as bad input at sign-up, and at log-in is wrong credentials, on every store",
          arguments: Backend.allCases)
    func nulInEmail(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            #expect(await keycatError { try await harness.signUp("ki\u{0}m@example.com") }?.code == .validation)
            _ = try await harness.signUp("kim@example.com")
            for email in ["kim\u{0}@example.com", "kim@example.com\u{0}", "\u{0}"] {
                #expect(await keycatError { try await harness.accounts.logIn(email: email, password: "keycat2026") }?.code
                        == .invalidCredentials, "\(email.debugDescription) on \(backend)")
            }
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
        }
    }
}
