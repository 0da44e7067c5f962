import KeyCat

/// `keycat-admin users set-role ID --role R`: the account's access tokens stop working; its next
/// refresh carries the new role. Audited as `user.set_role`.
struct UsersSetRoleCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "set-role", abstract: "Give an account another role; its access tokens are revoked.",
        discussion: "Example: keycat-admin users set-role 42 --role seller",
        arguments: [ArgumentSpec(name: "ID", help: "The user id.")],
        options: [OptionSpec(name: "role", valueName: "R", help: "buyer, seller or admin.", isRequired: true)])

    let id: UserID
    let role: Role

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = UserID(try arguments.id(at: 0, named: "ID"))
        guard let role = try arguments.choice("role", as: Role.self) else { throw UsageError("--role is required") }
        self.role = role
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let user = try await keycat.accounts.setRole(id, to: role, by: context.principal)
        context.emit(json: UserPresenter.json(user), human: "User \(user.id) (\(user.email)) is now \(user.role.rawValue).")
    }
}
