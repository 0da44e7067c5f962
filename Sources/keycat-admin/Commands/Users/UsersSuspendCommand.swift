import KeyCat

/// `keycat-admin users suspend ID`: the account can no longer log in or refresh, and its access
/// tokens stop working (at once in this database's servers' next token-version read, within
/// their cache lifetime). Audited as `user.suspend`.
struct UsersSuspendCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "suspend", abstract: "Suspend an account: no log-in, no refresh, its tokens revoked.",
        discussion: "Example: keycat-admin users suspend 42. Undo with users reinstate.",
        arguments: [ArgumentSpec(name: "ID", help: "The user id.")])

    let id: UserID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = UserID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let user = try await keycat.accounts.suspend(id, by: context.principal)
        context.emit(json: UserPresenter.json(user), human: "Suspended user \(user.id) (\(user.email)).")
    }
}
