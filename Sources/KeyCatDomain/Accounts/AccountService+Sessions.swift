import Foundation

extension AccountService {
    /// Logs in with email and password and starts a new token family.
    ///
    /// A hash made with weaker parameters than the current ones is replaced after a successful
    /// check. An unknown email costs the same hashing work as a wrong password, so timing does
    /// not reveal which accounts exist. With a ``LogInThrottle``, every attempt counts against
    /// the email's and the client's budgets before any hashing, and an attempt over either is
    /// refused at once, for unknown and known emails alike; success clears the email's count.
    ///
    /// - Parameter client: who is asking, as the server knows them (usually the client's
    ///   address); nil counts the attempt against the email only.
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` for an unknown or withdrawn email or a
    ///   wrong password (the same error for each); ``KeyCatError/Code/rateLimited`` (429, with
    ///   `retry_after`) when throttled.
    public func logIn(email: String, password: String, client: String? = nil) throws(KeyCatError) -> TokenPair {
        let wrong = KeyCatError(.invalidCredentials, "the email or password is wrong")
        let folded = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // Bounded before it is stored as a throttling key; no valid email is this long, or holds
        // a control character (a NUL would reach the user lookup, which Postgres refuses).
        guard folded.utf8.count <= 320, !AccountRules.hasControlCharacter(folded),
              client.map({ $0.utf8.count <= 256 }) ?? true else { throw wrong }
        try logInThrottle?.admit(email: folded, client: client, at: clock.now())
        // No stored password is longer than 64 characters: refuse megabyte inputs before hashing.
        guard password.utf8.count <= 1_024 else { throw wrong }
        guard let credentials = try users.credentials(forEmail: folded) else {
            _ = try? passwords.hash(password)  // equal work for unknown emails
            throw wrong
        }
        guard passwords.verify(password, against: credentials.passwordHash) else { throw wrong }
        let now = clock.now()
        try logInThrottle?.succeeded(email: folded, client: client, at: now)
        if passwords.needsRehash(credentials.passwordHash) {
            let upgraded = try passwords.hash(password)
            try users.updatePasswordHash(credentials.user.id, to: upgraded, at: now)
        }
        let (refreshToken, digest) = try refreshTokenMinter.mint()
        let expiresAt = now.addingTimeInterval(refreshTokenLifetime)
        _ = try refreshTokens.startFamily(for: credentials.user.id, first: digest, issuedAt: now, expiresAt: expiresAt)
        return try pair(for: credentials.user.principal, refreshToken: refreshToken, refreshExpiresAt: expiresAt, now: now)
    }

    /// Trades a refresh token for a new pair; the presented token is retired.
    ///
    /// Presenting a retired token again revokes every token of its family, including the one
    /// that replaced it (RFC 9700 §4.14.2's reuse detection): a stolen token is then useless to
    /// the thief and to the victim alike, and the user logs in again. Two refreshes racing with
    /// one token count as such a reuse: exactly one gets a pair, and the family is then revoked.
    ///
    /// - Throws: ``KeyCatError/Code/refreshTokenExpired`` for an unknown, expired, revoked or
    ///   reused token, or one whose account was withdrawn.
    public func refresh(_ refreshToken: String) throws(KeyCatError) -> TokenPair {
        guard let presented = refreshTokenMinter.digest(of: refreshToken) else { throw Self.refreshExpiredError }
        let (replacement, digest) = try refreshTokenMinter.mint()
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(refreshTokenLifetime)
        let rotation = try refreshTokens.rotate(presented, to: digest, at: now, expiresAt: expiresAt)
        guard let user = try users.find(rotation.userID), user.isActive else {
            try refreshTokens.revokeFamily(rotation.familyID, at: now)
            throw Self.refreshExpiredError
        }
        return try pair(for: user.principal, refreshToken: replacement, refreshExpiresAt: expiresAt, now: now)
    }

    /// Logs out: revokes the family of `refreshToken`. Logging out twice, or with a token
    /// that is unknown, does nothing.
    public func logOut(refreshToken: String) throws(KeyCatError) {
        guard let presented = refreshTokenMinter.digest(of: refreshToken) else { return }
        _ = try refreshTokens.revokeFamily(containing: presented, at: clock.now())
    }

    /// Changes the caller's password after checking the current one, and revokes every refresh
    /// token family of the account, so other devices must log in again. The caller keeps
    /// working with the pair this call returns.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCredentials`` when `current` is wrong;
    ///   ``KeyCatError/Code/validation`` on `password` when `new` breaks the rules;
    ///   ``KeyCatError/Code/notFound`` for a withdrawn account.
    public func changePassword(current: String, new: String, by principal: Principal) throws(KeyCatError) -> TokenPair {
        guard let user = try users.find(principal.userID), user.isActive,
              let credentials = try users.credentials(forEmail: user.email) else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        guard current.utf8.count <= 1_024, passwords.verify(current, against: credentials.passwordHash) else {
            throw KeyCatError(.invalidCredentials, "the current password is wrong")
        }
        let hash = try passwords.hash(try AccountRules.password(new))
        let now = clock.now()
        try users.updatePasswordHash(user.id, to: hash, at: now)
        try refreshTokens.revokeAll(for: user.id, at: now)
        let (refreshToken, digest) = try refreshTokenMinter.mint()
        let expiresAt = now.addingTimeInterval(refreshTokenLifetime)
        _ = try refreshTokens.startFamily(for: user.id, first: digest, issuedAt: now, expiresAt: expiresAt)
        return try pair(for: user.principal, refreshToken: refreshToken, refreshExpiresAt: expiresAt, now: now)
    }

    /// The principal an access token speaks for. Stateless: no database read.
    ///
    /// - Throws: ``KeyCatError/Code/accessTokenExpired`` (HTTP 419) for a genuine but expired
    ///   token; ``KeyCatError/Code/invalidToken`` (401) for anything else.
    public func authenticate(accessToken: String) throws(KeyCatError) -> Principal {
        try accessTokens.verify(accessToken, at: clock.now())
    }

    /// The one error every refused refresh gets, whatever the cause, so a caller learns nothing
    /// about which tokens exist.
    public static var refreshExpiredError: KeyCatError {
        KeyCatError(.refreshTokenExpired, "the refresh token is expired or was revoked; log in again")
    }

    private func pair(for principal: Principal, refreshToken: String, refreshExpiresAt: Date, now: Date)
        throws(KeyCatError) -> TokenPair
    {
        TokenPair(
            accessToken: try accessTokens.issue(for: principal, at: now),
            accessTokenExpiresAt: now.addingTimeInterval(accessTokens.lifetime),
            refreshToken: refreshToken, refreshTokenExpiresAt: refreshExpiresAt, principal: principal)
    }
}
