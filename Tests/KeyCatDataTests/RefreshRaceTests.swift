import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization
import Testing

/// A refresh whose account changes between the rotation and the read of the account.
@Suite("Refresh racing a password change")
struct RefreshRaceTests {
    /// The store's refresh tokens, with a password reset committing right after the next rotation,
    /// before the refresh reads the account: the narrowest place a race can land.
    final class ResetAfterRotation: RefreshTokenRepository, Sendable {
        let base: any RefreshTokenRepository
        let users: any UserRepository
        let armed = Mutex(false)

        init(base: any RefreshTokenRepository, users: any UserRepository) {
            self.base = base
            self.users = users
        }

        func startFamily(for user: UserID, tokenVersion: Int64, first: TokenDigest, issuedAt: Date,
                         expiresAt: Date) async throws(KeyCatError) -> Int64? {
            try await base.startFamily(for: user, tokenVersion: tokenVersion, first: first, issuedAt: issuedAt, expiresAt: expiresAt)
        }

        func rotate(_ presented: TokenDigest, to replacement: TokenDigest, at now: Date, expiresAt: Date,
                    familyLifetime: TimeInterval) async throws(KeyCatError) -> RefreshTokenRotation {
            let rotation = try await base.rotate(presented, to: replacement, at: now, expiresAt: expiresAt, familyLifetime: familyLifetime)
            if armed.withLock({ armed in defer { armed = false }; return armed }) {
                _ = try await users.changeAccess(rotation.userID, .password(hash: "reset-meanwhile"), at: now, audit: nil)
            }
            return rotation
        }

        func revokeFamily(containing presented: TokenDigest, at: Date) async throws(KeyCatError) -> Bool {
            try await base.revokeFamily(containing: presented, at: at)
        }

        func revokeFamily(_ familyID: Int64, at: Date) async throws(KeyCatError) {
            try await base.revokeFamily(familyID, at: at)
        }

        func revokeAll(for user: UserID, at: Date) async throws(KeyCatError) {
            try await base.revokeAll(for: user, at: at)
        }
    }

    @Test("a password reset committing between a refresh's rotation and its read of the account gets the refresh no pair",
          arguments: Backend.stored)
    func resetMeanwhile(_ backend: Backend) async throws {
        let racing = Mutex<ResetAfterRotation?>(nil)
        try await withAccounts(backend, tokens: { tokens, users in
            let wrapper = ResetAfterRotation(base: tokens, users: users)
            racing.withLock { $0 = wrapper }
            return wrapper
        }) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            // An ordinary refresh goes through.
            let refreshed = try await harness.accounts.refresh(pair.refreshToken)
            let wrapper = try #require(racing.withLock { $0 })
            wrapper.armed.withLock { $0 = true }
            do {
                let stale = try await harness.accounts.refresh(refreshed.refreshToken)
                Issue.record("a refresh that raced a password reset got a pair: \(stale.principal)")
            } catch let error as KeyCatError {
                #expect(error.code == .refreshTokenExpired, "\(error)")
            }
        }
    }
}
