import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Log-in, refresh, log-out and authentication, against both repository backends.
@Suite("Sessions and tokens")
struct SessionTests {
    @Test("logging in returns a pair whose access token authenticates as the user", arguments: Backend.allCases)
    func logIn(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "  KIM@example.com", password: "keycat2026")
            #expect(pair.principal == user.principal)
            #expect(pair.accessTokenExpiresAt == harness.clock.now().addingTimeInterval(15 * 60))
            #expect(pair.refreshTokenExpiresAt == harness.clock.now().addingTimeInterval(14 * 24 * 3600))
            await #expect(try harness.accounts.authenticate(accessToken: pair.accessToken) == user.principal)
            #expect(Base64URL.decode(pair.refreshToken)?.count == 32)
        }
    }

    @Test("a wrong password and an unknown email are the same invalid_credentials", arguments: Backend.allCases)
    func wrongCredentials(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let wrongPassword = await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2027") }
            let unknownEmail = await keycatError { try await harness.accounts.logIn(email: "nobody@example.com", password: "keycat2026") }
            #expect(wrongPassword?.code == .invalidCredentials)
            #expect(wrongPassword == unknownEmail)
            #expect(wrongPassword.map { !$0.description.contains("keycat2027") } == true)
        }
    }

    @Test("a hash with fewer iterations than configured is upgraded at log-in", arguments: Backend.allCases)
    func rehashOnLogIn(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let weak = try await PBKDF2PasswordHasher(iterations: 100).hash("keycat2026")
            let first = try #require(try await harness.users.credentials(forEmail: "kim@example.com")).passwordHash
            try await harness.users.updatePasswordHash(user.id, from: first, to: weak, at: harness.clock.now())
            // A rehash from a hash no longer stored (the password changed meanwhile) writes nothing.
            try await harness.users.updatePasswordHash(user.id, from: first, to: first, at: harness.clock.now())
            await #expect(try harness.users.credentials(forEmail: "kim@example.com")?.passwordHash == weak)
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let stored = try await #require(try harness.users.credentials(forEmail: "kim@example.com")).passwordHash
            #expect(stored != weak)
            #expect(stored.hasPrefix("pbkdf2-sha256$\(AccountsHarness.iterations)$"))
            #expect(await harness.hasher.verify("keycat2026", against: stored))
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            await #expect(try harness.users.credentials(forEmail: "kim@example.com")?.passwordHash == stored)
        }
    }

    @Test("refreshing rotates: a new pair, and the old refresh token is retired", arguments: Backend.allCases)
    func rotation(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let first = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            harness.clock.advance(by: 60)
            let second = try await harness.accounts.refresh(first.refreshToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            let third = try await harness.accounts.refresh(second.refreshToken)
            #expect(third.principal == first.principal)
        }
    }

    @Test("presenting a retired token revokes the whole family (reuse detection)", arguments: Backend.allCases)
    func reuseDetection(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let stolen = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let legitimate = try await harness.accounts.refresh(stolen.refreshToken)
            // The thief replays the retired token: refused, and the family burns.
            #expect(await keycatError { try await harness.accounts.refresh(stolen.refreshToken) }?.code == .refreshTokenExpired)
            // The token the legitimate client holds is now revoked too.
            #expect(await keycatError { try await harness.accounts.refresh(legitimate.refreshToken) }?.code == .refreshTokenExpired)
            // The stores leave the operators one trace of it, however often the token comes back.
            #expect(await keycatError { try await harness.accounts.refresh(stolen.refreshToken) }?.code == .refreshTokenExpired)
            if let traces = try await harness.query("SELECT actor, target FROM audit_log WHERE action = 'session.reuse_detected'",
                                                    { "\($0.string(0)) \($0.string(1))" }) {
                #expect(traces == ["system:sessions user:\(user.id)"])
            }
            // Another log-in (another family) is unaffected.
            let other = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            await #expect(try harness.accounts.refresh(other.refreshToken).principal == other.principal)
        }
    }

    @Test("a refresh token expires after 14 days", arguments: Backend.allCases)
    func refreshExpiry(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let early = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let late = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            harness.clock.advance(by: 14 * 24 * 3600 - 1)
            _ = try await harness.accounts.refresh(early.refreshToken)
            harness.clock.advance(by: 1)
            #expect(await keycatError { try await harness.accounts.refresh(late.refreshToken) }?.code == .refreshTokenExpired)
        }
    }

    @Test("a family rotated every day still ends 30 days after its log-in: the last token expires then, and none refreshes after",
          arguments: Backend.allCases)
    func familyLifetime(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let loggedIn = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let familyEnd = harness.clock.now().addingTimeInterval(AccountService.defaultRefreshTokenFamilyLifetime)
            var pair = loggedIn
            for _ in 1...29 {
                harness.clock.advance(by: 24 * 3600)
                pair = try await harness.accounts.refresh(pair.refreshToken)
            }
            // Issued on day 29: it would live 14 days, but its family ends on day 30.
            #expect(abs(pair.refreshTokenExpiresAt.timeIntervalSince(familyEnd)) < 0.001, "\(pair.refreshTokenExpiresAt) vs \(familyEnd)")
            harness.clock.advance(by: 24 * 3600 - 1)
            pair = try await harness.accounts.refresh(pair.refreshToken)
            harness.clock.advance(by: 1)
            #expect(await keycatError { try await harness.accounts.refresh(pair.refreshToken) }?.code == .refreshTokenExpired)
            // A new log-in starts a new family.
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
        }
    }

    @Test("unknown and malformed refresh tokens are refresh_token_expired", arguments: Backend.allCases, [
        "", "short", String(repeating: "A", count: 43), "not base64 at all!!", String(repeating: "x", count: 500),
    ])
    func unknownRefreshToken(_ backend: Backend, token: String) async throws {
        try await withAccounts(backend) { harness in
            let error = await keycatError { try await harness.accounts.refresh(token) }
            #expect(error?.code == .refreshTokenExpired)
            #expect(error.map { !$0.description.contains(token) || token.isEmpty } == true)
        }
    }

    @Test("logging out revokes the family; doing it twice or with junk is harmless", arguments: Backend.allCases)
    func logOut(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let rotated = try await harness.accounts.refresh(pair.refreshToken)
            try await harness.accounts.logOut(refreshToken: rotated.refreshToken)
            try await harness.accounts.logOut(refreshToken: rotated.refreshToken)
            try await harness.accounts.logOut(refreshToken: "junk")
            #expect(await keycatError { try await harness.accounts.refresh(rotated.refreshToken) }?.code == .refreshTokenExpired)
        }
    }

    @Test("an access token expires after 15 minutes on the clock: access_token_expired", arguments: Backend.allCases)
    func accessExpiry(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            harness.clock.advance(by: 15 * 60 - 1)
            _ = try await harness.accounts.authenticate(accessToken: pair.accessToken)
            harness.clock.advance(by: 1)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
            let renewed = try await harness.accounts.refresh(pair.refreshToken)
            await #expect(try harness.accounts.authenticate(accessToken: renewed.accessToken) == pair.principal)
        }
    }

    @Test("changing the password checks the old one and logs every other session out", arguments: Backend.allCases)
    func changePassword(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let phone = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            #expect(await keycatError { try await harness.accounts.changePassword(current: "wrong123", new: "newpass99", by: user.principal) }?
                .code == .invalidCredentials)
            #expect(await keycatError { try await harness.accounts.changePassword(current: "keycat2026", new: "weak", by: user.principal) }?
                .context["field"] == "password")
            let laptop = try await harness.accounts.changePassword(current: "keycat2026", new: "newpass99", by: user.principal)
            #expect(await keycatError { try await harness.accounts.refresh(phone.refreshToken) }?.code == .refreshTokenExpired)
            await #expect(try harness.accounts.refresh(laptop.refreshToken).principal == user.principal)
            #expect(await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026") }?.code
                == .invalidCredentials)
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "newpass99")
        }
    }

    @Test("many concurrent refreshes with one token: exactly one succeeds", arguments: Backend.allCases)
    func concurrentRefresh(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let accounts = harness.accounts
            let token = pair.refreshToken
            let outcomes = await withTaskGroup(of: KeyCatError.Code?.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        do {
                            _ = try await accounts.refresh(token)
                            return nil
                        } catch {
                            return (error as? KeyCatError)?.code ?? .internalError
                        }
                    }
                }
                return await group.reduce(into: [KeyCatError.Code?]()) { $0.append($1) }
            }
            #expect(outcomes.count == 32)
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .refreshTokenExpired })
        }
    }
}
