import Foundation
import KeyCat

/// Sign-up, sessions (log-in, refresh, log-out), the caller's own account, and the operators'
/// user list (or the one account with an email). Password hashing runs on KeyCat's own hashing threads, off the pool every route
/// shares. Sign-up, log-in and password changes are throttled by the request's
/// ``APIRequest/clientAddress`` (IPv6 by its /64); log-ins and password changes that send back the
/// `device_token` an earlier log-in returned count against that token instead (OWASP's device
/// cookies, see `LogInThrottlePolicy`).
enum AccountRoutes {
    static let routes: [Route] = [
        Route(.post, "/users", .anyone, body: .jsonDefault, status: 201) { context in
            let form = try context.json(SignUpBody.self).form
            let client = context.request.clientAddress
            let user = try await context.keycat.accounts.signUp(form, client: client)
            return .json(UserBody(user), status: 201).located(at: "/users/\(user.id)")
        },
        Route(.get, "/users", .admin, query: pageQuery + ["email", "nick"]) { context in
            let nick = try context.query("nick")
            if let email = try context.query("email") {
                guard nick == nil else { throw KeyCatError.validation("nick", "find by email or by nick, not both") }
                // One page at most: a limit is still checked, a cursor has nothing to go on to.
                _ = try context.limit()
                guard try context.cursor() == nil else { throw KeyCatError.validation("next", "an email lookup has no next page") }
                // One account or none: a page without a next one.
                let user = try await context.keycat.accounts.findUser(email: email, by: context.principal())
                return .json(PageBody(items: user.map { [UserBody($0)] } ?? [], nextCursor: nil))
            }
            let page = try await context.keycat.accounts.listUsers(
                nick: nick, limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, UserBody.init))
        },
        Route(.get, "/users/{id}", .signedIn) { context in
            await .json(UserBody(try context.keycat.accounts.profile(of: context.id(), by: context.principal())))
        },
        Route(.post, "/sessions", .anyone, body: .jsonDefault) { context in
            let body = try context.json(LogInBody.self)
            let client = context.request.clientAddress
            let pair = try await context.keycat.accounts.logIn(
                email: body.email, password: body.password, client: client, deviceToken: body.deviceToken)
            return .json(TokenPairBody(pair))
        },
        Route(.post, "/sessions/refresh", .anyone, body: .jsonDefault) { context in
            let body = try context.json(RefreshTokenBody.self)
            return await .json(TokenPairBody(try context.keycat.accounts.refresh(body.refreshToken)))
        },
        Route(.post, "/sessions/logout", .anyone, body: .jsonDefault, status: 204) { context in
            let body = try context.json(RefreshTokenBody.self)
            try await context.keycat.accounts.logOut(refreshToken: body.refreshToken)
            return .noContent
        },
        Route(.get, "/me", .signedIn) { context in
            let principal = try context.principal()
            return await .json(UserBody(try context.keycat.accounts.profile(of: principal.userID, by: principal)))
        },
        Route(.patch, "/me", .signedIn, body: .jsonDefault) { context in
            let update = try context.json(ProfileUpdateBody.self).update
            return await .json(UserBody(try context.keycat.accounts.updateProfile(update, by: context.principal())))
        },
        // Withdrawal asks for the password again, so it is an action with a body rather than a
        // `DELETE /me`, whose content RFC 9110 gives no meaning (§9.3.5).
        Route(.post, "/me/withdrawal", .signedIn, body: .jsonDefault, status: 204) { context in
            let body = try context.json(WithdrawalBody.self)
            try await context.keycat.accounts.withdraw(
                password: body.password, by: context.principal(), client: context.request.clientAddress,
                deviceToken: body.deviceToken)
            return .noContent
        },
        Route(.put, "/me/password", .signedIn, body: .jsonDefault) { context in
            let body = try context.json(PasswordChangeBody.self)
            let principal = try context.principal()
            let client = context.request.clientAddress
            let pair = try await context.keycat.accounts.changePassword(
                current: body.currentPassword, new: body.newPassword, by: principal, client: client,
                deviceToken: body.deviceToken)
            return .json(TokenPairBody(pair))
        },
    ]
}

struct SignUpBody: Decodable, Sendable {
    var email: String
    var password: String
    var nick: String
    var phone: String?
    var birthday: CalendarDate?

    var form: SignUpForm { SignUpForm(email: email, password: password, nick: nick, phone: phone, birthday: birthday) }
}

struct LogInBody: Decodable, Sendable {
    var email: String
    var password: String
    /// The device token an earlier log-in to this account returned, if the client kept one.
    var deviceToken: String?

    enum CodingKeys: String, CodingKey { case email, password, deviceToken = "device_token" }
}

struct RefreshTokenBody: Decodable, Sendable {
    var refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

struct WithdrawalBody: Decodable, Sendable {
    var password: String
    /// The caller's device token for this account, if it kept one.
    var deviceToken: String?

    enum CodingKeys: String, CodingKey { case password, deviceToken = "device_token" }
}

struct PasswordChangeBody: Decodable, Sendable {
    var currentPassword: String
    var newPassword: String
    /// The caller's device token for this account, if it kept one.
    var deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password", newPassword = "new_password", deviceToken = "device_token"
    }
}

/// A profile change: a field left out stays, `null` clears it (nick cannot be cleared).
struct ProfileUpdateBody: Decodable, Sendable, JSONClosedObject {
    var update: ProfileUpdate

    static var members: Set<String> { members(of: CodingKeys.self) }

    enum CodingKeys: String, CodingKey, CaseIterable { case nick, phone, birthday, profileImage = "profile_image" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        update = ProfileUpdate(
            nick: try container.decodeIfPresent(String.self, forKey: .nick),
            phone: try container.change(String.self, forKey: .phone),
            birthday: try container.change(CalendarDate.self, forKey: .birthday),
            profileImage: try container.change(String.self, forKey: .profileImage))
    }
}

extension KeyedDecodingContainer {
    /// Absent: keep; `null`: clear; a value: set.
    func change<Value: Decodable & Sendable & Hashable>(_ type: Value.Type, forKey key: Key) throws -> FieldChange<Value> {
        guard contains(key) else { return .keep }
        if try decodeNil(forKey: key) { return .clear }
        return .set(try decode(Value.self, forKey: key))
    }
}
