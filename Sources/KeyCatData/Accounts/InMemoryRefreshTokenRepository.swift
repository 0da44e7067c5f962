import Foundation
import KeyCatDomain
import Synchronization

/// Refresh tokens in memory, for tests of the use cases without a file. One lock around all
/// state gives rotation the same exactly-one-wins guarantee as the SQLite transaction.
package final class InMemoryRefreshTokenRepository: RefreshTokenRepository {
    private struct Token {
        var family: Int64
        var expiresAt: Date
        var rotated: Bool
    }

    private struct Family {
        var user: UserID
        var createdAt: Date
        var revoked: Bool
    }

    private struct State {
        var tokens: [TokenDigest: Token] = [:]
        var families: [Int64: Family] = [:]
        var nextFamily: Int64 = 1
    }

    private let state = Mutex(State())

    package init() {}

    /// Keeps no accounts, so cannot check `tokenVersion`: the domain tests that use it race no
    /// log-in against a password change.
    package func startFamily(for user: UserID, tokenVersion: Int64, first: TokenDigest, issuedAt: Date,
                             expiresAt: Date) throws(KeyCatError) -> Int64? {
        state.withLock { state in
            let family = state.nextFamily
            state.nextFamily += 1
            state.families[family] = Family(user: user, createdAt: issuedAt, revoked: false)
            state.tokens[first] = Token(family: family, expiresAt: expiresAt, rotated: false)
            return family
        }
    }

    package func rotate(_ presented: TokenDigest, to replacement: TokenDigest, at now: Date, expiresAt: Date,
                        familyLifetime: TimeInterval) throws(KeyCatError) -> RefreshTokenRotation
    {
        let rotation: RefreshTokenRotation? = state.withLock { state in
            guard let token = state.tokens[presented], let family = state.families[token.family],
                  !family.revoked else { return nil }
            if token.rotated {
                state.families[token.family]?.revoked = true
                return nil
            }
            let familyEnd = family.createdAt.addingTimeInterval(familyLifetime)
            guard now < familyEnd else {
                state.families[token.family]?.revoked = true
                return nil
            }
            guard now < token.expiresAt else { return nil }
            state.tokens[presented]?.rotated = true
            state.tokens[replacement] = Token(family: token.family, expiresAt: min(expiresAt, familyEnd), rotated: false)
            return RefreshTokenRotation(userID: family.user, familyID: token.family, expiresAt: min(expiresAt, familyEnd))
        }
        guard let rotation else { throw AccountService.refreshExpiredError }
        return rotation
    }

    package func revokeFamily(containing presented: TokenDigest, at: Date) throws(KeyCatError) -> Bool {
        state.withLock { state in
            guard let family = state.tokens[presented]?.family else { return false }
            state.families[family]?.revoked = true
            return true
        }
    }

    package func revokeFamily(_ familyID: Int64, at: Date) throws(KeyCatError) {
        state.withLock { $0.families[familyID]?.revoked = true }
    }

    package func revokeAll(for user: UserID, at: Date) throws(KeyCatError) {
        state.withLock { state in
            for (id, family) in state.families where family.user == user { state.families[id]?.revoked = true }
        }
    }
}
