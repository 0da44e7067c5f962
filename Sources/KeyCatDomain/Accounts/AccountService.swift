import Foundation

/// The account use cases: sign up, profiles, withdrawal (this file); log-in, refresh, log-out
/// and authentication (`AccountService+Sessions.swift`); operators' user management
/// (`AccountService+Operators.swift`).
///
/// Every call is synchronous and safe from many tasks at once.
public struct AccountService: Sendable {
    /// The default refresh-token lifetime, 14 days (architecture §4).
    public static let defaultRefreshTokenLifetime: TimeInterval = 14 * 24 * 60 * 60
    /// The default lifetime of a refresh token family, 30 days from its log-in: rotating on
    /// every use keeps a session alive only that long, so a stolen token kept fresh by its
    /// thief still dies, and every device logs in again at least once a month.
    public static let defaultRefreshTokenFamilyLifetime: TimeInterval = 30 * 24 * 60 * 60

    let users: any UserRepository
    let refreshTokens: any RefreshTokenRepository
    let passwords: any PasswordHasher
    let accessTokens: any AccessTokenCodec
    let refreshTokenMinter: any RefreshTokenMinter
    let cursors: any PageCursorCodec
    let clock: any WallClock
    let refreshTokenLifetime: TimeInterval
    /// How long a family of refresh tokens (one log-in and its refreshes) lives at most.
    let refreshTokenFamilyLifetime: TimeInterval
    /// Failed log-ins are throttled through this when set (see ``LogInThrottlePolicy``).
    let logInThrottle: LogInThrottle?
    /// Sign-ups are throttled per client through this when set (see ``SignUpThrottlePolicy``).
    let signUpThrottle: SignUpThrottle?
    /// Token versions recently read, so that most authentications read no row.
    let tokenVersions: TokenVersionCache
    /// Where an operator's reads of other people's accounts are recorded.
    let access: PersonalDataAccess

    /// The default time a token version read from the store is trusted: 5 seconds.
    public static let defaultTokenVersionCacheLifetime: TimeInterval = 5

    public init(
        users: any UserRepository, refreshTokens: any RefreshTokenRepository, passwords: any PasswordHasher,
        accessTokens: any AccessTokenCodec, refreshTokenMinter: any RefreshTokenMinter,
        cursors: any PageCursorCodec, clock: any WallClock,
        refreshTokenLifetime: TimeInterval = AccountService.defaultRefreshTokenLifetime,
        refreshTokenFamilyLifetime: TimeInterval = AccountService.defaultRefreshTokenFamilyLifetime,
        logInThrottle: LogInThrottle? = nil, signUpThrottle: SignUpThrottle? = nil,
        tokenVersions: TokenVersionCache = TokenVersionCache(lifetime: AccountService.defaultTokenVersionCacheLifetime),
        accessLog: (any AuditLog)? = nil
    ) {
        self.access = PersonalDataAccess(log: accessLog, clock: clock)
        self.users = users
        self.refreshTokens = refreshTokens
        self.passwords = passwords
        self.accessTokens = accessTokens
        self.refreshTokenMinter = refreshTokenMinter
        self.cursors = cursors
        self.clock = clock
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshTokenFamilyLifetime = refreshTokenFamilyLifetime
        self.logInThrottle = logInThrottle
        self.signUpThrottle = signUpThrottle
        self.tokenVersions = tokenVersions
    }

    /// Creates a buyer account.
    ///
    /// Sign-up tells whether an email already has a live account (``KeyCatError/Code/duplicate``):
    /// without an email-verification step it cannot be hidden, so it is throttled instead. With a
    /// ``SignUpThrottle``, every sign-up whose form is valid counts against `client`'s budget
    /// before the password is hashed.
    ///
    /// - Parameter client: who is asking, as the server knows them (usually the client's address);
    ///   nil is not counted.
    /// - Throws: ``KeyCatError/Code/validation`` naming the field that breaks architecture §2's rules;
    ///   ``KeyCatError/Code/duplicate`` when a live account already uses the email (ignoring case);
    ///   ``KeyCatError/Code/rateLimited`` (429, with `retry_after`) when the client is throttled.
    public func signUp(_ form: SignUpForm, client: String? = nil) async throws(KeyCatError) -> User {
        try await register(form, role: .buyer, audit: nil) { () throws(KeyCatError) in
            try await signUpThrottle?.admit(client: client, at: clock.now())
        }
    }

    func register(_ form: SignUpForm, role: Role, audit: (@Sendable (User) -> AuditEntry)?,
                  admit: () async throws(KeyCatError) -> Void = {}) async throws(KeyCatError) -> User {
        let now = clock.now()
        let email = try AccountRules.email(form.email)
        let nick = try AccountRules.nick(form.nick)
        let password = try AccountRules.password(form.password)
        let phone = try form.phone.map { phone throws(KeyCatError) in try AccountRules.phone(phone) }
        let birthday = try form.birthday.map { date throws(KeyCatError) in
            try AccountRules.birthday(date, today: CalendarDate(now))
        }
        try await admit()
        let hash = try await passwords.hash(password)
        do throws(KeyCatError) {
            return try await users.insert(NewUser(
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
    public func profile(of id: UserID, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.requireOwnerOrAdmin(id, of: "profile")
        guard let user = try await users.find(id), user.isActive || principal.role == .admin else {
            throw KeyCatError.notFound("user", id)
        }
        if principal.userID != id {
            try await access.record(by: principal, to: "user:\(id)", "profile")
        }
        return user
    }

    /// Changes the caller's own profile.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` for a field that breaks the rules;
    ///   ``KeyCatError/Code/notFound`` when the account was withdrawn.
    public func updateProfile(_ update: ProfileUpdate, by principal: Principal) async throws(KeyCatError) -> User {
        guard var user = try await users.find(principal.userID), user.isActive else {
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
        return try await users.updateProfile(user)
    }

    /// Withdraws the caller's own account once `password` shows it is the owner asking (회원탈퇴
    /// asks for the password again): an access token alone, which may have been stolen, cannot
    /// end an account. Wrong passwords are throttled as a password change's are.
    ///
    /// The account is marked withdrawn; every refresh token is revoked; its access tokens stop
    /// working at once (its token version is bumped); its products drop out of lists. What
    /// identifies the person is destroyed in the same transaction (개인정보 보호법 §21): email,
    /// nick, phone, birthday, profile image and password hash give way to
    /// ``AccountRules/withdrawnEmail(_:)`` and ``AccountRules/withdrawnNick``. What the law asks
    /// a shop to keep — orders, their lines, payments, refunds, carriers and tracking numbers
    /// (전자상거래법 §6) — stays, under the account's id; so do its reviews and the audit trail.
    ///
    /// - Parameters:
    ///   - client: who is asking, as for ``logIn(email:password:client:deviceToken:)``.
    ///   - deviceToken: the caller's device token for this account, if it kept one.
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` when `password` is wrong;
    ///   ``KeyCatError/Code/rateLimited`` when throttled; ``KeyCatError/Code/notFound`` when the
    ///   account is already withdrawn; ``KeyCatError/Code/illegalTransition`` for a seller with
    ///   parcels or returns still to see through.
    public func withdraw(password: String, by principal: Principal, client: String? = nil, deviceToken: String? = nil)
        async throws(KeyCatError)
    {
        _ = try await confirmPassword(password, of: principal, client: client, deviceToken: deviceToken)
        let now = clock.now()
        // Told to every webhook endpoint (the id alone), so a shop's other systems erase the
        // person too; kept in the audit log, which outlives what it was about.
        let audit = AuditEntry(actor: principal.auditActor, action: "user.withdraw", target: "user:\(principal.userID)", at: now)
        guard try await users.withdraw(principal.userID, at: now, audit: audit) else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        tokenVersions.forget(principal.userID)
        try await refreshTokens.revokeAll(for: principal.userID, at: now)
    }
}
