import KeyCat

/// `keycat-admin users reinstate ID`: lifts a suspension; the owner logs in again. Audited as
/// `user.reinstate`.
struct UsersReinstateCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reinstate", abstract: "Lift an account's suspension.",
        arguments: [ArgumentSpec(name: "ID", help: "The user id.")])

    let id: UserID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = UserID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let user = try await keycat.accounts.reinstate(id, by: context.principal)
        context.emit(json: UserPresenter.json(user), human: "Reinstated user \(user.id) (\(user.email)).")
    }
}
