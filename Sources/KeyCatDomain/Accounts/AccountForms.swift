import Foundation

/// What a person fills in to sign up. The password is plain text only on its way to the hasher;
/// the description never shows it.
public struct SignUpForm: Sendable, CustomStringConvertible {
    public var email: String
    public var password: String
    public var nick: String
    /// Korean phone number, digits with optional hyphens (`010-1234-5678`).
    public var phone: String?
    public var birthday: CalendarDate?

    public init(email: String, password: String, nick: String, phone: String? = nil, birthday: CalendarDate? = nil) {
        self.email = email
        self.password = password
        self.nick = nick
        self.phone = phone
        self.birthday = birthday
    }

    public var description: String { "SignUpForm(email: \(email), nick: \(nick), password: <redacted>)" }
}

/// How one optional field of a profile changes: left as it is, set, or cleared.
public enum FieldChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case keep
    case set(Value)
    case clear
}

/// The parts of a profile a user may change. Fields left at their defaults stay as they are.
public struct ProfileUpdate: Sendable, Hashable {
    /// A new nick, or nil to keep it.
    public var nick: String?
    public var phone: FieldChange<String>
    public var birthday: FieldChange<CalendarDate>
    /// A reference into the image store (key or URL), at most 500 characters.
    public var profileImage: FieldChange<String>

    public init(nick: String? = nil, phone: FieldChange<String> = .keep,
                birthday: FieldChange<CalendarDate> = .keep, profileImage: FieldChange<String> = .keep) {
        self.nick = nick
        self.phone = phone
        self.birthday = birthday
        self.profileImage = profileImage
    }
}

/// The pair a successful log-in or refresh hands back. Its description hides both tokens.
public struct TokenPair: Sendable, Hashable, CustomStringConvertible {
    /// The JWT to send as `Authorization: Bearer …`.
    public let accessToken: String
    public let accessTokenExpiresAt: Date
    /// The opaque token to trade for the next pair, once.
    public let refreshToken: String
    public let refreshTokenExpiresAt: Date
    /// Who the tokens speak for.
    public let principal: Principal
    /// After a log-in or password change with log-in throttling on, the device token to send
    /// back with later log-ins (see ``DeviceToken``); nil from a refresh. Keep it apart from the
    /// session: it outlives log-outs.
    public let deviceToken: DeviceToken?

    public init(accessToken: String, accessTokenExpiresAt: Date, refreshToken: String,
                refreshTokenExpiresAt: Date, principal: Principal, deviceToken: DeviceToken? = nil) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.principal = principal
        self.deviceToken = deviceToken
    }

    public var description: String {
        "TokenPair(user: \(principal.userID), role: \(principal.role), accessToken: <redacted>, refreshToken: <redacted>)"
    }
}
