import Foundation

/// A KeyCat account as the rest of the system sees it. The password hash never leaves the
/// repository layer except through ``UserCredentials``.
public struct User: Sendable, Hashable, Identifiable {
    public let id: UserID
    /// Case-folded (lower-cased) email, unique among accounts that are not withdrawn.
    public var email: String
    public var nick: String
    /// Digits only, e.g. `"01012345678"`.
    public var phone: String?
    public var birthday: CalendarDate?
    /// A reference into the image store (a key or URL), not the image itself.
    public var profileImage: String?
    public var role: Role
    public var createdAt: Date
    public var updatedAt: Date
    /// When the user withdrew: their tokens are revoked, their products hidden, their history kept.
    public var withdrawnAt: Date?
    /// When an operator suspended the account (nil when it is not suspended): it cannot log in
    /// or refresh, and its access tokens were revoked.
    public var suspendedAt: Date?
    /// Bumped whenever the account's access tokens must stop working at once (password change or
    /// reset, withdrawal, suspension, role change). Every access token carries the version it was
    /// issued at; one behind the account's is refused.
    public var tokenVersion: Int64

    public init(
        id: UserID, email: String, nick: String, phone: String? = nil, birthday: CalendarDate? = nil,
        profileImage: String? = nil, role: Role, createdAt: Date, updatedAt: Date, withdrawnAt: Date? = nil,
        suspendedAt: Date? = nil, tokenVersion: Int64 = 0
    ) {
        self.id = id
        self.email = email
        self.nick = nick
        self.phone = phone
        self.birthday = birthday
        self.profileImage = profileImage
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.withdrawnAt = withdrawnAt
        self.suspendedAt = suspendedAt
        self.tokenVersion = tokenVersion
    }

    /// Whether the account is live (not withdrawn).
    public var isActive: Bool { withdrawnAt == nil }

    /// Whether an operator suspended the account.
    public var isSuspended: Bool { suspendedAt != nil }

    /// The principal this user acts as.
    public var principal: Principal { Principal(userID: id, role: role) }
}

/// A user with the stored password hash, for logging in. Its description hides the hash.
public struct UserCredentials: Sendable, CustomStringConvertible {
    public let user: User
    /// The self-describing hash string a ``PasswordHasher`` wrote.
    public let passwordHash: String

    public init(user: User, passwordHash: String) {
        self.user = user
        self.passwordHash = passwordHash
    }

    public var description: String { "UserCredentials(user: \(user.id), passwordHash: <redacted>)" }
}

/// A validated account about to be stored.
public struct NewUser: Sendable, CustomStringConvertible {
    public var email: String
    public var nick: String
    public var passwordHash: String
    public var phone: String?
    public var birthday: CalendarDate?
    public var role: Role
    public var createdAt: Date

    public init(email: String, nick: String, passwordHash: String, phone: String?, birthday: CalendarDate?,
                role: Role, createdAt: Date) {
        self.email = email
        self.nick = nick
        self.passwordHash = passwordHash
        self.phone = phone
        self.birthday = birthday
        self.role = role
        self.createdAt = createdAt
    }

    public var description: String { "NewUser(email: \(email), nick: \(nick), role: \(role), passwordHash: <redacted>)" }
}
