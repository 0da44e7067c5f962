import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Access tokens stop working at once when the account's token version moves on: a password
/// change or reset, a withdrawal, a suspension, a role change. Operators' changes are audited.
@Suite("Token revocation and operators' account actions")
struct TokenRevocationTests {
    static let console = Principal.operatorConsole("root")

    /// The audit actions recorded for `target`, oldest first, from whichever store the harness uses.
    static func auditActions(_ harness: AccountsHarness, target: String) async throws -> [String] {
        if let rows = try await harness.query("SELECT action FROM audit_log WHERE target = '\(target)' ORDER BY id", { $0.string(0) }) {
            return rows
        }
        let memory = try #require(harness.users as? InMemoryUserRepository)
        return memory.auditEntries.filter { $0.target == target }.map(\.action)
    }

    @Test("a password change refuses the older access tokens at once (access_token_expired) and ends the other sessions",
          arguments: Backend.allCases)
    func passwordChange(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let first = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let other = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let principal = try await harness.accounts.authenticate(accessToken: first.accessToken)
            let changed = try await harness.accounts.changePassword(current: "keycat2026", new: "keycat2027", by: principal)
            for stale in [first.accessToken, other.accessToken] {
                #expect(await keycatError { try await harness.accounts.authenticate(accessToken: stale) }?.code == .accessTokenExpired)
            }
            #expect(await keycatError { try await harness.accounts.refresh(other.refreshToken) }?.code == .refreshTokenExpired)
            await #expect(try harness.accounts.authenticate(accessToken: changed.accessToken) == principal)
            await #expect(try harness.users.tokenVersion(of: principal.userID) == 1)
        }
    }

    @Test("withdrawal refuses the account's access tokens at once", arguments: Backend.allCases)
    func withdrawal(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            try await harness.accounts.withdraw(password: "keycat2026", by: pair.principal)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
        }
    }

    @Test("suspension: no log-in (the right password learns why), no refresh, tokens refused; reinstatement lifts it; both audited",
          arguments: Backend.allCases)
    func suspension(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let suspended = try await harness.accounts.suspend(user.id, by: Self.console)
            #expect(suspended.isSuspended && suspended.tokenVersion == 1)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
            #expect(await keycatError { try await harness.accounts.refresh(pair.refreshToken) }?.code == .refreshTokenExpired)
            let right = await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026") }
            #expect(right?.code == .forbidden && right?.context["reason"] == "account_suspended")
            let wrong = await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "wrong-guess-1") }
            let unknown = await keycatError { try await harness.accounts.logIn(email: "nobody@example.com", password: "wrong-guess-1") }
            #expect(wrong?.code == .invalidCredentials && wrong?.message == unknown?.message && wrong?.context == unknown?.context)
            #expect(await keycatError { try await harness.accounts.suspend(user.id, by: Self.console) }?.code == .illegalTransition)

            let back = try await harness.accounts.reinstate(user.id, by: Self.console)
            #expect(!back.isSuspended)
            #expect(await keycatError { try await harness.accounts.reinstate(user.id, by: Self.console) }?.code == .illegalTransition)
            let again = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            await #expect(try harness.accounts.authenticate(accessToken: again.accessToken).userID == user.id)
            await #expect(try Self.auditActions(harness, target: "user:\(user.id)") == ["user.suspend", "user.reinstate"])
        }
    }

    @Test("a role change refuses the older access tokens; the next refresh carries the new role", arguments: Backend.allCases)
    func roleChange(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let changed = try await harness.accounts.setRole(user.id, to: .seller, by: Self.console)
            #expect(changed.role == .seller)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
            let next = try await harness.accounts.refresh(pair.refreshToken)
            await #expect(try harness.accounts.authenticate(accessToken: next.accessToken).role == .seller)
            // The same role again changes and records nothing.
            await #expect(try harness.accounts.setRole(user.id, to: .seller, by: Self.console).tokenVersion == changed.tokenVersion)
            await #expect(try Self.auditActions(harness, target: "user:\(user.id)") == ["user.set_role"])
        }
    }

    @Test("an operator's password reset applies the rules, ends every session and is audited without the password",
          arguments: Backend.allCases)
    func passwordReset(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            #expect(await keycatError { try await harness.accounts.resetPassword(user.id, to: "short", by: Self.console) }?.code == .validation)
            _ = try await harness.accounts.resetPassword(user.id, to: "keycat2099", by: Self.console)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
            #expect(await keycatError { try await harness.accounts.refresh(pair.refreshToken) }?.code == .refreshTokenExpired)
            #expect(await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026") }?.code
                    == .invalidCredentials)
            _ = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2099")
            await #expect(try Self.auditActions(harness, target: "user:\(user.id)") == ["user.reset_password"])
        }
    }

    @Test("operators' actions: admins only, never on oneself, never on a missing or withdrawn account", arguments: Backend.allCases)
    func operatorRules(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            let admin = try await harness.accounts.createUser(
                SignUpForm(email: "admin@example.com", password: "keycat2026", nick: "admin"), role: .admin, by: Self.console)
            #expect(await keycatError { try await harness.accounts.suspend(admin.id, by: user.principal) }?.code == .forbidden)
            #expect(await keycatError { try await harness.accounts.suspend(admin.id, by: admin.principal) }?.code == .forbidden)
            #expect(await keycatError { try await harness.accounts.setRole(admin.id, to: .buyer, by: admin.principal) }?.code == .forbidden)
            #expect(await keycatError { try await harness.accounts.suspend(UserID(999), by: Self.console) }?.code == .notFound)
            try await harness.accounts.withdraw(password: "keycat2026", by: user.principal)
            #expect(await keycatError { try await harness.accounts.setRole(user.id, to: .seller, by: Self.console) }?.code == .notFound)
            #expect(await keycatError { try await harness.accounts.reinstate(user.id, by: Self.console) }?.code == .notFound)
        }
    }

    @Test("a seller approval refuses the applicant's buyer tokens; the next refresh says seller", arguments: Backend.allCases)
    func approvalRevokes(backend: Backend) async throws {
        try await withAccounts(backend, registry: SellerServiceTests.registry) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let application = try await harness.sellers.apply(SellerServiceTests.form("2208162517"), by: pair.principal)
            _ = try await harness.sellers.approve(application.id, by: Self.console)
            #expect(await keycatError { try await harness.accounts.authenticate(accessToken: pair.accessToken) }?.code == .accessTokenExpired)
            await #expect(try harness.accounts.authenticate(accessToken: harness.accounts.refresh(pair.refreshToken).accessToken).role == .seller)
        }
    }

    @Test("a version changed by another process is seen once the cached one is older than the cache lifetime")
    func cacheLifetime() async throws {
        let cache = TokenVersionCache(lifetime: 5)
        let stored = Stored()
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let read = { (id: UserID) throws(KeyCatError) -> Int64? in stored.read(id) }
        #expect(try await cache.version(of: UserID(1), at: start, read: read) == 0)
        stored.bump()  // another process
        #expect(try await cache.version(of: UserID(1), at: start.addingTimeInterval(4.9), read: read) == 0)
        #expect(try await cache.version(of: UserID(1), at: start.addingTimeInterval(5), read: read) == 1)
        stored.bump()  // this process: forgotten at once
        cache.forget(UserID(1))
        #expect(try await cache.version(of: UserID(1), at: start.addingTimeInterval(5.1), read: read) == 2)
        #expect(stored.reads == 3)
        // An unknown account is not remembered; lifetime 0 reads every time.
        #expect(try await cache.version(of: UserID(9), at: start, read: read) == nil)
        let uncached = TokenVersionCache(lifetime: 0)
        _ = try await uncached.version(of: UserID(1), at: start, read: read)
        _ = try await uncached.version(of: UserID(1), at: start, read: read)
        #expect(stored.reads == 6)
    }

    @Test("a read that began before a forget is not kept")
    func forgetDuringRead() async throws {
        let cache = TokenVersionCache(lifetime: 5)
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let stale = try await cache.version(of: UserID(1), at: now) { _ throws(KeyCatError) in
            cache.forget(UserID(1))  // the change lands while the old version is being read
            return 0
        }
        #expect(stale == 0)
        #expect(try await cache.version(of: UserID(1), at: now) { _ throws(KeyCatError) in 1 } == 1)
    }

    /// A token version in "the database", counting reads.
    private final class Stored: @unchecked Sendable {
        // Only touched from one test's thread.
        private var version: Int64 = 0
        private(set) var reads = 0
        func read(_ id: UserID) -> Int64? {
            reads += 1
            return id == UserID(1) ? version : nil
        }
        func bump() { version += 1 }
    }
}
