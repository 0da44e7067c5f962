import KeyCat

/// `keycat-admin users reset-password ID`, the new password read from stdin (never an argument,
/// so it stays out of shell history and `ps`). Every session of the account ends. Audited as
/// `user.reset_password`; the password is recorded nowhere.
struct UsersResetPasswordCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reset-password", abstract: "Set an account's password, read from standard input; its sessions end.",
        discussion: "Example: printf '%s\\n' \"$PASSWORD\" | keycat-admin users reset-password 42",
        arguments: [ArgumentSpec(name: "ID", help: "The user id.")])

    let id: UserID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = UserID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        guard let password = context.readSecret("New password: "), !password.isEmpty else {
            throw KeyCatError.validation("password", "write the password on standard input")
        }
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let user = try await keycat.accounts.resetPassword(id, to: password, by: context.principal)
        context.emit(json: UserPresenter.json(user), human: "Reset the password of user \(user.id) (\(user.email)).")
    }
}
