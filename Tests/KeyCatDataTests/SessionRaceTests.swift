import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization
import Testing

/// A log-in racing the account's password change: whatever the order, no session started with
/// the old password outlives the change.
@Suite("Log-ins racing password changes")
struct SessionRaceTests {
    /// Runs `during`, once, while the next password check is under way (after the account was
    /// read, before the session starts): the window a real log-in spends hashing.
    final class DuringCheck: Sendable {
        private let action = Mutex<(@Sendable () async -> Void)?>(nil)
        func once(_ body: @escaping @Sendable () async -> Void) { action.withLock { $0 = body } }
        func run() async { if let body = action.withLock({ $0.take() }) { await body() } }
    }

    struct HookedHasher: PasswordHasher {
        let base: PBKDF2PasswordHasher
        let during: DuringCheck
        func hash(_ password: String) async throws(KeyCatError) -> String { try await base.hash(password) }
        func verify(_ password: String, against stored: String) async -> Bool {
            let matches = await base.verify(password, against: stored)
            await during.run()
            return matches
        }
        func needsRehash(_ stored: String) -> Bool { base.needsRehash(stored) }
    }

    static let stores = Backend.allCases.filter { $0 != .inMemory }  // the memory store keeps accounts and tokens apart

    @Test("a log-in whose password changes while it is checked is refused, and starts no session", arguments: stores)
    func passwordChangedDuringLogIn(backend: Backend) async throws {
        let during = DuringCheck()
        try await withAccounts(backend, hasher: { HookedHasher(base: $0, during: during) }) { harness in
            let user = try await harness.signUp()
            let accounts = harness.accounts
            during.once {
                _ = try? await accounts.changePassword(current: "keycat2026", new: "keycat2027!", by: user.principal)
            }
            let late = await #expect(throws: KeyCatError.self) {
                try await accounts.logIn(email: "kim@example.com", password: "keycat2026")
            }
            #expect(late?.code == .invalidCredentials)
            // Only the session the change itself returned is alive.
            let live = try await harness.query("SELECT count(*) FROM refresh_token_families WHERE revoked_at IS NULL") { $0.int64(0) }
            #expect(live == [1])
            _ = try await accounts.logIn(email: "kim@example.com", password: "keycat2027!")
        }
    }

    @Test("a log-in whose account changed role while it was checked starts its session at the new version", arguments: stores)
    func roleChangedDuringLogIn(backend: Backend) async throws {
        let during = DuringCheck()
        try await withAccounts(backend, hasher: { HookedHasher(base: $0, during: during) }) { harness in
            let user = try await harness.signUp()
            let users = harness.users
            during.once { _ = try? await users.changeAccess(user.id, .role(.seller), at: Date(), audit: nil) }
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let principal = try await harness.accounts.authenticate(accessToken: pair.accessToken)
            #expect(principal.role == .seller)
            _ = try await harness.accounts.refresh(pair.refreshToken)
        }
    }
}
