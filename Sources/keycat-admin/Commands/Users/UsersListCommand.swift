import KeyCat

/// `keycat-admin users list`: every account in id order, withdrawn ones included.
struct UsersListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List accounts in id order.", options: PagingOptions.options)

    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.accounts.listUsers(limit: limit, cursor: cursor, by: context.principal)
        context.emitPage(page, headers: UserPresenter.headers, row: UserPresenter.row, json: UserPresenter.json)
    }
}
