extension AccountService {
    /// The account with this email (case-folded, trimmed, as log-in reads it), withdrawn ones
    /// included, or nil: how an operator finds the customer who wrote in.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/validation`` (`email`) for an empty one or one over 254 characters.
    public func findUser(email: String, by principal: Principal) async throws(KeyCatError) -> User? {
        try principal.require(.admin, to: "look accounts up")
        let folded = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !folded.isEmpty, folded.count <= 254 else {
            throw KeyCatError.validation("email", "an email to look up has 1–254 characters")
        }
        let user = try await users.credentials(forEmail: folded)?.user
        try await access.record(by: principal, to: user.map { "user:\($0.id)" } ?? "users", user == nil ? "look-up by email, none found" : "look-up by email")
        return user
    }
}
