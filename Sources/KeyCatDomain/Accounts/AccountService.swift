import Foundation

/// The account use cases: sign up, profiles, withdrawal (this file); log-in, refresh, log-out
/// and authentication (`AccountService+Sessions.swift`); operators' user management
/// (`AccountService+Operators.swift`).
///
/// Every call is synchronous and safe from many tasks at once.
public struct AccountService: Sendable {
    /// The default refresh-token lifetime, 14 days (architecture §4).
    public static let defaultRefreshTokenLifetime: TimeInterval = 14 * 24 * 60 * 60

    let users: any UserRepository
    let refreshTokens: any RefreshTokenRepository
    let passwords: any PasswordHasher
    let accessTokens: any AccessTokenCodec
    let refreshTokenMinter: any RefreshTokenMinter
    let cursors: any PageCursorCodec
    let clock: any WallClock
    let refreshTokenLifetime: TimeInterval
    /// Failed log-ins are throttled through this when set (see ``LogInThrottlePolicy``).
    let logInThrottle: LogInThrottle?

    public init(
        users: any UserRepository, refreshTokens: any RefreshTokenRepository, passwords: any PasswordHasher,
        accessTokens: any AccessTokenCodec, refreshTokenMinter: any RefreshTokenMinter,
        cursors: any PageCursorCodec, clock: any WallClock,
        refreshTokenLifetime: TimeInterval = AccountService.defaultRefreshTokenLifetime,
        logInThrottle: LogInThrottle? = nil
    ) {
        self.users = users
        self.refreshTokens = refreshTokens
        self.passwords = passwords
        self.accessTokens = accessTokens
        self.refreshTokenMinter = refreshTokenMinter
        self.cursors = cursors
        self.clock = clock
        self.refreshTokenLifetime = refreshTokenLifetime
        self.logInThrottle = logInThrottle
    }

    /// Creates a buyer account.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` naming the field that breaks architecture §2's rules;
    ///   ``KeyCatError/Code/duplicate`` when a live account already uses the email (ignoring case).
    public func signUp(_ form: SignUpForm) throws(KeyCatError) -> User {
        try register(form, role: .buyer, audit: nil)
    }

    func register(_ form: SignUpForm, role: Role, audit: (@Sendable (User) -> AuditEntry)?) throws(KeyCatError) -> User {
        let now = clock.now()
        let email = try AccountRules.email(form.email)
        let nick = try AccountRules.nick(form.nick)
        let password = try AccountRules.password(form.password)
        let phone = try form.phone.map { phone throws(KeyCatError) in try AccountRules.phone(phone) }
        let birthday = try form.birthday.map { date throws(KeyCatError) in
            try AccountRules.birthday(date, today: CalendarDate(now))
        }
        let hash = try passwords.hash(password)
        do throws(KeyCatError) {
            return try users.insert(NewUser(
                email: email, nick: nick, passwordHash: hash, phone: phone, birthday: birthday,
                role: role, createdAt: now), audit: audit)
        } catch where error.code == .duplicate {
            throw KeyCatError(.duplicate, "an account with this email already exists", context: ["field": "email"])
        }
    }

    /// A user's profile: their own, or anyone's for an admin.
    ///
    /// - Throws: ``KeyCatError/Code/notOwner`` for someone else's profile;
    ///   ``KeyCatError/Code/notFound`` when the account does not exist or, for non-admins,
    ///   was withdrawn.
    public func profile(of id: UserID, by principal: Principal) throws(KeyCatError) -> User {
        try principal.requireOwnerOrAdmin(id, of: "profile")
        guard let user = try users.find(id), user.isActive || principal.role == .admin else {
            throw KeyCatError.notFound("user", id)
        }
        return user
    }

    /// Changes the caller's own profile.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` for a field that breaks the rules;
    ///   ``KeyCatError/Code/notFound`` when the account was withdrawn.
    public func updateProfile(_ update: ProfileUpdate, by principal: Principal) throws(KeyCatError) -> User {
        guard var user = try users.find(principal.userID), user.isActive else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        let now = clock.now()
        if let nick = update.nick { user.nick = try AccountRules.nick(nick) }
        switch update.phone {
        case .keep: break
        case .clear: user.phone = nil
        case .set(let phone): user.phone = try AccountRules.phone(phone)
        }
        switch update.birthday {
        case .keep: break
        case .clear: user.birthday = nil
        case .set(let date): user.birthday = try AccountRules.birthday(date, today: CalendarDate(now))
        }
        switch update.profileImage {
        case .keep: break
        case .clear: user.profileImage = nil
        case .set(let reference): user.profileImage = try AccountRules.profileImage(reference)
        }
        user.updatedAt = now
        return try users.updateProfile(user)
    }

    /// Withdraws the caller's own account: it is marked withdrawn (its orders, reviews and audit
    /// history stay), every refresh token is revoked, and its products drop out of lists.
    /// Access tokens already issued stay verifiable until they expire (15 minutes), but every
    /// use case that loads the account treats it as gone.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when the account is already withdrawn.
    public func withdraw(by principal: Principal) throws(KeyCatError) {
        let now = clock.now()
        guard try users.withdraw(principal.userID, at: now) else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        try refreshTokens.revokeAll(for: principal.userID, at: now)
    }
}
