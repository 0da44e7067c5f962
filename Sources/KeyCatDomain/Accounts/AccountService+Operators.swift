extension AccountService {
    /// Creates an account with any role: the operators' `users create`. Recorded in the audit
    /// log as `user.create` (target `user:<id>`, detail the role) in the same transaction.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin; otherwise as
    ///   ``signUp(_:)``.
    public func createUser(_ form: SignUpForm, role: Role, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.require(.admin, to: "create accounts")
        let actor = principal.auditActor
        let now = clock.now()
        return try await register(form, role: role) { user in
            AuditEntry(actor: actor, action: "user.create", target: "user:\(user.id)", detail: "role \(role.rawValue)", at: now)
        }
    }

    /// Every account, withdrawn ones included, in id order, keyset-paginated; with `nick`, only
    /// those whose nick contains it (``AccountRules/nickSearchTerm(_:)``: Latin letters in
    /// either case, Hangul and everything else exactly). The cursor is bound to the term.
    ///
    /// The search reads the accounts in id order and tests each nick (no index serves a
    /// substring): a page costs the accounts up to its last match, a rare nick the whole table,
    /// which is fine for an operators' lookup over a shop's accounts.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/validation`` naming `nick` for an empty or over-long term;
    ///   ``KeyCatError/Code/invalidCursor`` for a cursor that is not from this list and term.
    public func listUsers(nick: String? = nil, limit: PageLimit = .default, cursor: String? = nil, by principal: Principal)
        async throws(KeyCatError) -> Page<User>
    {
        try principal.require(.admin, to: "list accounts")
        let term = try nick.map { nick throws(KeyCatError) in try AccountRules.nickSearchTerm(nick) }
        let query = term.map { "users:id|nick=\($0)" } ?? "users:id"
        let after = try cursor.map { cursor throws(KeyCatError) in UserID(try cursors.decode(cursor, query: query).id) }
        var rows = try await users.list(nickContaining: term, after: after, limit: limit.value + 1)
        var next: String?
        if rows.count > limit.value {
            rows.removeLast(rows.count - limit.value)
            next = rows.last.map { cursors.encode(CursorPosition(id: $0.id.rawValue), query: query) }
        }
        try await access.record(by: principal, to: "users", term == nil ? "list" : "list by nick", ids: rows.map(\.id.rawValue))
        return Page(items: rows, nextCursor: next)
    }

    /// Suspends an account: it can no longer log in or refresh, every refresh token family is
    /// revoked and its access tokens stop working at once. Audited as `user.suspend`.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin, or when an admin
    ///   would suspend themselves; ``KeyCatError/Code/notFound`` for a missing or withdrawn
    ///   account; ``KeyCatError/Code/illegalTransition`` when it is already suspended.
    public func suspend(_ id: UserID, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.require(.admin, to: "suspend accounts")
        guard principal.userID != id else { throw KeyCatError(.forbidden, "an operator may not suspend their own account") }
        return try await operatorChange(id, .suspend, action: "user.suspend", detail: "", by: principal,
                                        conflict: "the account is already suspended")
    }

    /// Lifts a suspension; the owner logs in again. Audited as `user.reinstate`.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/notFound`` for a missing or withdrawn account;
    ///   ``KeyCatError/Code/illegalTransition`` when it is not suspended.
    public func reinstate(_ id: UserID, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.require(.admin, to: "reinstate accounts")
        return try await operatorChange(id, .reinstate, action: "user.reinstate", detail: "", by: principal,
                                        conflict: "the account is not suspended")
    }

    /// Gives an account another role. Its access tokens stop working at once; its refresh tokens
    /// stay, so the next refresh carries the new role. Audited as `user.set_role` (detail
    /// `role <old> -> <new>`). Setting the role it already has changes and records nothing.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin, or when an admin
    ///   would change their own role; ``KeyCatError/Code/notFound`` for a missing or withdrawn account.
    public func setRole(_ id: UserID, to role: Role, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.require(.admin, to: "change roles")
        guard principal.userID != id else { throw KeyCatError(.forbidden, "an operator may not change their own role") }
        guard let user = try await users.find(id), user.isActive else { throw KeyCatError.notFound("user", id) }
        guard user.role != role else { return user }
        return try await operatorChange(id, .role(role), action: "user.set_role",
                                        detail: "role \(user.role.rawValue) -> \(role.rawValue)", by: principal,
                                        conflict: "the account changed meanwhile")
    }

    /// Sets a new password for an account (its owner lost theirs). The password rules apply;
    /// every refresh token family is revoked and the access tokens stop working at once.
    /// Audited as `user.reset_password` (the password is never recorded).
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/validation`` on `password`; ``KeyCatError/Code/notFound`` for a
    ///   missing or withdrawn account.
    public func resetPassword(_ id: UserID, to password: String, by principal: Principal) async throws(KeyCatError) -> User {
        try principal.require(.admin, to: "reset passwords")
        let hash = try await passwords.hash(try AccountRules.password(password))
        return try await operatorChange(id, .password(hash: hash), action: "user.reset_password", detail: "", by: principal,
                                        conflict: "the account changed meanwhile")
    }

    /// Applies an operator's change with its audit entry in one transaction, then forgets the
    /// cached token version and revokes refresh tokens where the change calls for it.
    private func operatorChange(_ id: UserID, _ change: AccessChange, action: String, detail: String,
                                by principal: Principal, conflict: String) async throws(KeyCatError) -> User {
        let now = clock.now()
        let entry = AuditEntry(actor: principal.auditActor, action: action, target: "user:\(id)", detail: detail, at: now)
        guard let changed = try await users.changeAccess(id, change, at: now, audit: entry) else {
            guard let user = try await users.find(id), user.isActive else { throw KeyCatError.notFound("user", id) }
            throw KeyCatError(.illegalTransition, conflict, context: ["status": user.isSuspended ? "suspended" : "active"])
        }
        tokenVersions.forget(id)
        switch change {
        case .suspend, .password: try await refreshTokens.revokeAll(for: id, at: now)
        case .reinstate, .role: break
        }
        return changed
    }
}
