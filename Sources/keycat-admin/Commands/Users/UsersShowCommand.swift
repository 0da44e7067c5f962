import KeyCat

/// `keycat-admin users show ID`.
struct UsersShowCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show one account.",
        arguments: [ArgumentSpec(name: "ID", help: "The user id.")])

    let id: UserID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = UserID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let user = try await keycat.accounts.profile(of: id, by: context.principal)
        let counts = try await keycat.follows.counts(of: id)
        context.emit(json: UserPresenter.json(user, counts: counts), human: UserPresenter.details(user, counts: counts))
    }
}
