import KeyCat

/// `keycat-admin users create --email E --nick N [--role R]`, the password read from stdin
/// (never an argument, so it stays out of shell history and `ps`).
struct UsersCreateCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "create", abstract: "Create an account; the password is read from standard input.",
        discussion: "Example: printf '%s\\n' \"$PASSWORD\" | keycat-admin users create --email kim@example.com --nick 김키캣 --role seller",
        options: [
            OptionSpec(name: "email", valueName: "E", help: "The email (unique, case-insensitive).", isRequired: true),
            OptionSpec(name: "nick", valueName: "N", help: "The nick, 2–20 characters.", isRequired: true),
            OptionSpec(name: "role", valueName: "R", help: "buyer (default), seller or admin."),
        ])

    let email: String
    let nick: String
    let role: Role

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        email = try arguments.requiredString("email")
        nick = try arguments.requiredString("nick")
        role = try arguments.choice("role", as: Role.self) ?? .buyer
    }

    func run(_ context: CommandContext) async throws {
        guard let password = context.readSecret("Password for \(email): "), !password.isEmpty else {
            throw KeyCatError.validation("password", "write the password on standard input")
        }
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let user = try await keycat.accounts.createUser(
            SignUpForm(email: email, password: password, nick: nick), role: role, by: context.principal)
        context.emit(json: UserPresenter.json(user),
                     human: "Created user \(user.id) (\(user.email), \(user.role.rawValue)).")
    }
}
