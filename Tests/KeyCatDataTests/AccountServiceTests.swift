import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Sign-up, profiles and withdrawal, run against both the in-memory and the SQLite repositories.
@Suite("Account use cases")
struct AccountServiceTests {
    @Test("signing up stores a buyer with a case-folded email and normalised fields", arguments: Backend.allCases)
    func signUp(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let birthday = try CalendarDate(year: 1995, month: 5, day: 17)
            let user = try await harness.accounts.signUp(SignUpForm(
                email: " Kim@Example.COM ", password: "keycat2026", nick: " 키캣러버 ",
                phone: "010-1234-5678", birthday: birthday))
            #expect(user.email == "kim@example.com")
            #expect(user.nick == "키캣러버")
            #expect(user.phone == "01012345678")
            #expect(user.birthday == birthday)
            #expect(user.role == .buyer)
            #expect(user.isActive)
            await #expect(try harness.users.find(user.id) == user)
        }
    }

    @Test("each broken rule at sign-up is a validation error naming its field", arguments: Backend.allCases, [
        (SignUpForm(email: "kim", password: "keycat2026", nick: "kim"), "email"),
        (SignUpForm(email: "kim@example.com", password: "short1", nick: "kim"), "password"),
        (SignUpForm(email: "kim@example.com", password: "onlyletters", nick: "kim"), "password"),
        (SignUpForm(email: "kim@example.com", password: "12345678", nick: "kim"), "password"),
        (SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "k"), "nick"),
        (SignUpForm(email: "kim@example.com", password: "keycat2026", nick: String(repeating: "k", count: 21)), "nick"),
        (SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim", phone: "12"), "phone"),
        (SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim",
                    birthday: try! CalendarDate(year: 2030, month: 1, day: 1)), "birthday"),
    ])
    func signUpValidation(_ backend: Backend, _ invalid: (SignUpForm, String)) async throws {
        let (form, field) = invalid
        try await withAccounts(backend) { harness in
            let error = await keycatError { try await harness.accounts.signUp(form) }
            #expect(error?.code == .validation)
            #expect(error?.context["field"] == field)
            #expect(error.map { !$0.description.contains(form.password) } == true)
            let stored = try await harness.users.list(after: nil, limit: 10)
            #expect(stored.isEmpty)
        }
    }

    @Test("an email already used, in any case, is a duplicate", arguments: Backend.allCases)
    func duplicateEmail(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp("kim@example.com")
            let error = await keycatError { try await harness.signUp("KIM@example.com", nick: "other") }
            #expect(error?.code == .duplicate)
            #expect(error?.context["field"] == "email")
        }
    }

    @Test("a user reads and updates their own profile, image reference included", arguments: Backend.allCases)
    func profile(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            harness.clock.advance(by: 60)
            let updated = try await harness.accounts.updateProfile(
                ProfileUpdate(nick: "kimchi", phone: .set("010 9999 0000"),
                              birthday: .set(CalendarDate(year: 2000, month: 2, day: 29)),
                              profileImage: .set("https://cdn.example.com/users/1/avatar.webp")),
                by: user.principal)
            #expect(updated.nick == "kimchi")
            #expect(updated.phone == "01099990000")
            #expect(updated.profileImage == "https://cdn.example.com/users/1/avatar.webp")
            #expect(updated.updatedAt == harness.clock.now())
            await #expect(try harness.accounts.profile(of: user.id, by: user.principal) == updated)
            let cleared = try await harness.accounts.updateProfile(ProfileUpdate(phone: .clear, profileImage: .clear), by: user.principal)
            #expect(cleared.phone == nil && cleared.profileImage == nil && cleared.nick == "kimchi")
        }
    }

    @Test("a bad profile field is a validation error and changes nothing", arguments: Backend.allCases, [
        (ProfileUpdate(nick: "x"), "nick"), (ProfileUpdate(phone: .set("call me")), "phone"),
        (ProfileUpdate(birthday: .set(try! CalendarDate(year: 1800, month: 1, day: 1))), "birthday"),
        (ProfileUpdate(profileImage: .set("")), "profile_image"),
    ])
    func profileValidation(_ backend: Backend, _ invalid: (ProfileUpdate, String)) async throws {
        let (update, field) = invalid
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            #expect(await keycatError { try await harness.accounts.updateProfile(update, by: user.principal) }?.context["field"] == field)
            await #expect(try harness.users.find(user.id) == user)
        }
    }

    @Test("someone else's profile is not_owner, except for an admin", arguments: Backend.allCases)
    func profileOwnership(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let kim = try await harness.signUp("kim@example.com")
            let lee = try await harness.signUp("lee@example.com", nick: "lee")
            #expect(await keycatError { try await harness.accounts.profile(of: kim.id, by: lee.principal) }?.code == .notOwner)
            let admin = Principal(userID: UserID(99), role: .admin)
            await #expect(try harness.accounts.profile(of: kim.id, by: admin) == kim)
            #expect(await keycatError { try await harness.accounts.profile(of: UserID(404), by: admin) }?.code == .notFound)
        }
    }

    @Test("withdrawal asks for the password, keeps the row without what identified the person, revokes refresh tokens, refuses log-in and frees the email",
          arguments: Backend.allCases)
    func withdraw(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let user = try await harness.signUp()
            _ = try await harness.accounts.updateProfile(
                ProfileUpdate(phone: .set("010-1234-5678"), birthday: .set(try CalendarDate(year: 1990, month: 5, day: 17)),
                              profileImage: .set("https://img.example.com/kim.png")), by: user.principal)
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            // A stolen access token alone ends nothing: the wrong password changes nothing.
            #expect(await keycatError { try await harness.accounts.withdraw(password: "guess1234", by: user.principal) }?.code
                == .invalidCredentials)
            let before = try await #require(try harness.users.find(user.id))
            #expect(before.isActive && before.email == "kim@example.com" && before.phone != nil && before.birthday != nil)

            try await harness.accounts.withdraw(password: "keycat2026", by: user.principal)
            let stored = try await #require(try harness.users.find(user.id))
            #expect(stored.withdrawnAt == harness.clock.now())
            #expect(stored.email == AccountRules.withdrawnEmail(user.id) && stored.nick == AccountRules.withdrawnNick)
            #expect(stored.phone == nil && stored.birthday == nil && stored.profileImage == nil)
            #expect(try await harness.users.credentials(forEmail: "kim@example.com") == nil)
            #expect(await keycatError { try await harness.accounts.refresh(pair.refreshToken) }?.code == .refreshTokenExpired)
            #expect(await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026") }?.code
                == .invalidCredentials)
            #expect(await keycatError { try await harness.accounts.profile(of: user.id, by: user.principal) }?.code == .notFound)
            #expect(await keycatError { try await harness.accounts.updateProfile(ProfileUpdate(nick: "again"), by: user.principal) }?.code
                == .notFound)
            #expect(await keycatError { try await harness.accounts.withdraw(password: "keycat2026", by: user.principal) }?.code == .notFound)
            let again = try await harness.signUp()
            #expect(again.id != user.id)
        }
    }

    @Test("operators create users with a role and page through every account", arguments: Backend.allCases)
    func operatorUsers(backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            let console = Principal.operatorConsole("root")
            let admin = try await harness.accounts.createUser(
                SignUpForm(email: "ops@keycat.kr", password: "operator1", nick: "ops"), role: .admin, by: console)
            #expect(admin.role == .admin)
            for index in 0..<4 { _ = try await harness.signUp("user\(index)@example.com", nick: "user\(index)") }
            var seen: [UserID] = []
            var cursor: String?
            repeat {
                let page = try await harness.accounts.listUsers(limit: PageLimit(2), cursor: cursor, by: console)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == (1...5).map { UserID(Int64($0)) })
            let buyer = try await harness.signUp("buyer@example.com", nick: "buyer")
            #expect(await keycatError { try await harness.accounts.listUsers(by: buyer.principal) }?.code == .forbidden)
            #expect(await keycatError {
                try await harness.accounts.createUser(SignUpForm(email: "x@example.com", password: "keycat2026", nick: "xx"),
                                                      role: .admin, by: buyer.principal)
            }?.code == .forbidden)
            #expect(await keycatError { try await harness.accounts.listUsers(cursor: "bm90LWEtY3Vyc29y", by: console) }?.code == .invalidCursor)
        }
    }
}
