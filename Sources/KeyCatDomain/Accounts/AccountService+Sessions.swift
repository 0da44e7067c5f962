import Foundation

extension AccountService {
    /// Logs in with email and password and starts a new token family.
    ///
    /// A hash made with weaker parameters than the current ones is replaced after a successful
    /// check. An unknown email, a withdrawn or suspended account and a wrong password all cost
    /// one password hashing at the current parameters, so timing does not tell them apart; only
    /// the right password of a suspended account learns that it is suspended. With a
    /// ``LogInThrottle``, every attempt is counted before any hashing, for unknown and known
    /// emails alike: against the device token's own budget when `deviceToken` is valid for the
    /// email, else against the (email, client) pair, the client and the email (see
    /// ``LogInThrottlePolicy``). A success hands out a new device token in the pair.
    ///
    /// - Parameters:
    ///   - client: who is asking, as the server knows them (usually the client's address; IPv6
    ///     addresses count by their /64); nil counts the attempt against the email only.
    ///   - deviceToken: the ``DeviceToken`` an earlier log-in to this account gave this client,
    ///     if it kept one. An invalid, expired or other account's token counts as none.
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` for an unknown or withdrawn email or a
    ///   wrong password (the same error for each); ``KeyCatError/Code/forbidden`` (reason
    ///   `account_suspended`) for the right password of a suspended account;
    ///   ``KeyCatError/Code/rateLimited`` (429, with `retry_after`) when throttled.
    public func logIn(email: String, password: String, client: String? = nil, deviceToken: String? = nil)
        async throws(KeyCatError) -> TokenPair
    {
        let wrong = KeyCatError(.invalidCredentials, "the email or password is wrong")
        let folded = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // Bounded before it is stored as a throttling key; no valid email is this long, or holds
        // a control character (a NUL would reach the user lookup, which Postgres refuses).
        guard folded.utf8.count <= 320, !AccountRules.hasControlCharacter(folded),
              client.map({ $0.utf8.count <= 256 }) ?? true else { throw wrong }
        let askedAt = clock.now()
        // A genuine device token counts only at the account's version, read first for it alone;
        // junk is refused by its signature before anything is read.
        let device = logInThrottle?.presentedDevice(deviceToken, for: folded, at: askedAt)
        var known: UserCredentials??
        if device != nil { known = .some(try await users.credentials(forEmail: folded)) }
        let budgets = logInThrottle?.logInBudgets(email: folded, client: client, device: device, account: known??.user)
        if let logInThrottle, let budgets { try await logInThrottle.admit(budgets, at: askedAt) }
        // No stored password is longer than 64 characters: refuse megabyte inputs before hashing.
        guard password.utf8.count <= 1_024 else { throw wrong }
        if known == nil { known = .some(try await users.credentials(forEmail: folded)) }
        guard var credentials = known ?? nil else {
            _ = try? await passwords.hash(password)  // equal work for unknown emails
            throw wrong
        }
        guard await passwords.verify(password, against: credentials.passwordHash) else { throw wrong }
        guard !credentials.user.isSuspended else { throw Self.suspendedError }
        let now = clock.now()
        if let logInThrottle, let budgets { try await logInThrottle.succeeded(budgets, at: now) }
        var checked = [credentials.passwordHash]  // the hashes this log-in's password matches
        if passwords.needsRehash(credentials.passwordHash) {
            let upgraded = try await passwords.hash(password)
            try await users.updatePasswordHash(credentials.user.id, from: credentials.passwordHash, to: upgraded, at: now)
            checked.append(upgraded)
        }
        let (refreshToken, digest) = try refreshTokenMinter.mint()
        let expiresAt = now.addingTimeInterval(min(refreshTokenLifetime, refreshTokenFamilyLifetime))
        // The family starts only at the token version the password was checked at: a password
        // change (or suspension) that committed while this log-in hashed revoked every family
        // and must not miss this one. A version that moved for another reason (a role change)
        // with the same password hash is taken as it now is, once.
        while try await refreshTokens.startFamily(for: credentials.user.id, tokenVersion: credentials.user.tokenVersion,
                                                  first: digest, issuedAt: now, expiresAt: expiresAt) == nil {
            guard let current = try await users.credentials(forEmail: folded), current.user.id == credentials.user.id,
                  checked.contains(current.passwordHash),
                  current.user.tokenVersion != credentials.user.tokenVersion else { throw wrong }
            guard !current.user.isSuspended else { throw Self.suspendedError }
            credentials = current
        }
        return try pair(for: credentials.user, refreshToken: refreshToken, refreshExpiresAt: expiresAt, now: now,
                        deviceToken: logInThrottle?.deviceToken(for: folded, account: credentials.user, at: now))
    }

    /// Trades a refresh token for a new pair; the presented token is retired.
    ///
    /// Presenting a retired token again revokes every token of its family, including the one
    /// that replaced it (RFC 9700 §4.14.2's reuse detection): a stolen token is then useless to
    /// the thief and to the victim alike, and the user logs in again. Two refreshes racing with
    /// one token count as such a reuse: exactly one gets a pair, and the family is then revoked.
    ///
    /// Rotation does not make a session immortal: a family ends `refreshTokenFamilyLifetime`
    /// (30 days by default) after its log-in, and the refresh token issued last expires then.
    ///
    /// - Throws: ``KeyCatError/Code/refreshTokenExpired`` for an unknown, expired, revoked or
    ///   reused token, one whose family is past its lifetime, or one whose account was withdrawn
    ///   or suspended.
    public func refresh(_ refreshToken: String) async throws(KeyCatError) -> TokenPair {
        guard let presented = refreshTokenMinter.digest(of: refreshToken) else { throw Self.refreshExpiredError }
        let (replacement, digest) = try refreshTokenMinter.mint()
        let now = clock.now()
        let rotation = try await refreshTokens.rotate(presented, to: digest, at: now, expiresAt: now.addingTimeInterval(refreshTokenLifetime),
                                                      familyLifetime: refreshTokenFamilyLifetime)
        guard let user = try await users.find(rotation.userID), user.isActive, !user.isSuspended else {
            try await refreshTokens.revokeFamily(rotation.familyID, at: now)
            throw Self.refreshExpiredError
        }
        // The account changed after the rotation read it (a password change, a suspension, a
        // role change committing between the two): a pair signed now would carry a version the
        // rotation never saw, and outlive a revocation. The caller logs in again.
        if let version = rotation.tokenVersion, version != user.tokenVersion { throw Self.refreshExpiredError }
        return try pair(for: user, refreshToken: replacement, refreshExpiresAt: rotation.expiresAt, now: now)
    }

    /// Logs out: revokes the family of `refreshToken`. Logging out twice, or with a token
    /// that is unknown, does nothing.
    public func logOut(refreshToken: String) async throws(KeyCatError) {
        guard let presented = refreshTokenMinter.digest(of: refreshToken) else { return }
        _ = try await refreshTokens.revokeFamily(containing: presented, at: clock.now())
    }

    /// Changes the caller's password after checking the current one. Every refresh token family
    /// of the account is revoked and its access tokens stop working at once (the token version is
    /// bumped), so other devices must log in again; the caller keeps working with the pair this
    /// call returns, which carries a new device token. Wrong current passwords are throttled
    /// (counted before hashing), so a stolen access token cannot be used to guess the password:
    /// against the device token's budget when `deviceToken` is valid for the account, else
    /// against the account's signed-in budget and the client's. Strangers' log-in guesses, which
    /// fill the account's slow-down, never block the owner here.
    ///
    /// - Parameters:
    ///   - client: who is asking, as for ``logIn(email:password:client:deviceToken:)``.
    ///   - deviceToken: the caller's device token for this account, if it kept one.
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` when `current` is wrong;
    ///   ``KeyCatError/Code/validation`` on `password` when `new` breaks the rules;
    ///   ``KeyCatError/Code/rateLimited`` when throttled;
    ///   ``KeyCatError/Code/notFound`` for a withdrawn account.
    public func changePassword(current: String, new: String, by principal: Principal, client: String? = nil,
                               deviceToken: String? = nil) async throws(KeyCatError) -> TokenPair
    {
        let newPassword = try AccountRules.password(new)
        let user = try await confirmPassword(current, of: principal, client: client, deviceToken: deviceToken)
        let hash = try await passwords.hash(newPassword)
        let now = clock.now()
        guard let changed = try await users.changeAccess(user.id, .password(hash: hash), at: now, audit: nil) else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        tokenVersions.forget(user.id)
        try await refreshTokens.revokeAll(for: user.id, at: now)
        let (refreshToken, digest) = try refreshTokenMinter.mint()
        let expiresAt = now.addingTimeInterval(min(refreshTokenLifetime, refreshTokenFamilyLifetime))
        guard try await refreshTokens.startFamily(for: user.id, tokenVersion: changed.tokenVersion, first: digest, issuedAt: now,
                                                  expiresAt: expiresAt) != nil else {
            throw KeyCatError(.invalidCredentials, "the account changed again meanwhile (its password, or its access): log in again")
        }
        return try pair(for: changed, refreshToken: refreshToken, refreshExpiresAt: expiresAt, now: now,
                        deviceToken: logInThrottle?.deviceToken(for: user.email, account: changed, at: now))
    }

    /// The signed-in caller's live account, once `password` is shown to be its password: the
    /// check a password change and a withdrawal make before they act. A wrong password is
    /// counted (before hashing) against the device token's budget when `deviceToken` is valid
    /// for the account, else against the account's signed-in budget and the client's; a right
    /// one clears the budgets it was counted against.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` when `password` is wrong;
    ///   ``KeyCatError/Code/rateLimited`` when throttled; ``KeyCatError/Code/notFound`` for a
    ///   withdrawn account.
    func confirmPassword(_ password: String, of principal: Principal, client: String?, deviceToken: String?)
        async throws(KeyCatError) -> User
    {
        guard let user = try await users.find(principal.userID), user.isActive,
              let credentials = try await users.credentials(forEmail: user.email) else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        let askedAt = clock.now()
        let budgets = logInThrottle?.passwordChangeBudgets(
            email: user.email, user: user.id, accountVersion: user.tokenVersion, client: client, deviceToken: deviceToken, at: askedAt)
        if let logInThrottle, let budgets { try await logInThrottle.admit(budgets, at: askedAt) }
        guard password.utf8.count <= 1_024, await passwords.verify(password, against: credentials.passwordHash) else {
            throw KeyCatError(.invalidCredentials, "the password is wrong")
        }
        if let logInThrottle, let budgets { try await logInThrottle.succeeded(budgets, at: clock.now()) }
        return user
    }

    /// The principal an access token speaks for.
    ///
    /// The token's signature and expiry are checked without a database read; its token version is
    /// compared with the account's, which ``TokenVersionCache`` keeps for a few seconds, so after a
    /// password change, withdrawal, suspension or role change the account's older tokens are
    /// refused at once in this process, and within the cache's lifetime in others.
    ///
    /// - Throws: ``KeyCatError/Code/accessTokenExpired`` (HTTP 419: refresh) for a genuine token
    ///   past its expiry or revoked by a newer token version; ``KeyCatError/Code/invalidToken``
    ///   (401) for anything else, an account that does not exist included.
    public func authenticate(accessToken: String) async throws(KeyCatError) -> Principal {
        let now = clock.now()
        let claims = try accessTokens.claims(of: accessToken, at: now)
        let id = claims.principal.userID
        guard let current = try await tokenVersions.version(of: id, at: now, read: { id throws(KeyCatError) in
            try await users.tokenVersion(of: id)
        }) else {
            throw KeyCatError(.invalidToken, "the access token is not valid")
        }
        guard current == claims.version else {
            throw KeyCatError(.accessTokenExpired, "the access token was revoked; refresh it or log in again")
        }
        return claims.principal
    }

    /// The error for the right password of a suspended account.
    static var suspendedError: KeyCatError {
        KeyCatError(.forbidden, "this account is suspended; contact support", context: ["reason": "account_suspended"])
    }

    /// The one error every refused refresh gets, whatever the cause, so a caller learns nothing
    /// about which tokens exist.
    public static var refreshExpiredError: KeyCatError {
        KeyCatError(.refreshTokenExpired, "the refresh token is expired or was revoked; log in again")
    }

    func pair(for user: User, refreshToken: String, refreshExpiresAt: Date, now: Date, deviceToken: DeviceToken? = nil)
        throws(KeyCatError) -> TokenPair
    {
        let principal = user.principal
        return TokenPair(
            accessToken: try accessTokens.issue(for: principal, version: user.tokenVersion, at: now),
            accessTokenExpiresAt: now.addingTimeInterval(accessTokens.lifetime),
            refreshToken: refreshToken, refreshTokenExpiresAt: refreshExpiresAt, principal: principal,
            deviceToken: deviceToken)
    }
}
