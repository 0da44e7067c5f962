extension AccountService {
    /// Creates an account with any role: the operators' `users create`. Recorded in the audit
    /// log as `user.create` (target `user:<id>`, detail the role) in the same transaction.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin; otherwise as
    ///   ``signUp(_:)``.
    public func createUser(_ form: SignUpForm, role: Role, by principal: Principal) throws(KeyCatError) -> User {
        try principal.require(.admin, to: "create accounts")
        let actor = principal.auditActor
        let now = clock.now()
        return try register(form, role: role) { user in
            AuditEntry(actor: actor, action: "user.create", target: "user:\(user.id)", detail: "role \(role.rawValue)", at: now)
        }
    }

    /// Every account, withdrawn ones included, in id order, keyset-paginated.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/invalidCursor`` for a cursor that is not from this list.
    public func listUsers(limit: PageLimit = .default, cursor: String? = nil, by principal: Principal)
        throws(KeyCatError) -> Page<User>
    {
        try principal.require(.admin, to: "list accounts")
        let query = "users:id"
        let after = try cursor.map { cursor throws(KeyCatError) in UserID(try cursors.decode(cursor, query: query).id) }
        var rows = try users.list(after: after, limit: limit.value + 1)
        var next: String?
        if rows.count > limit.value {
            rows.removeLast(rows.count - limit.value)
            next = rows.last.map { cursors.encode(CursorPosition(id: $0.id.rawValue), query: query) }
        }
        return Page(items: rows, nextCursor: next)
    }
}
