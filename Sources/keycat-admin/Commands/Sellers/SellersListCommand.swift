import KeyCat

/// `keycat-admin sellers list [--status S]`.
struct SellersListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List seller applications in id order.",
        options: [OptionSpec(name: "status", valueName: "S", help: "pending, approved or rejected.")] + PagingOptions.options)

    let status: SellerApplicationStatus?
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        status = try arguments.choice("status", as: SellerApplicationStatus.self)
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.sellers.listApplications(status: status, limit: limit, cursor: cursor, by: context.principal)
        context.emitPage(page, headers: UserPresenter.applicationHeaders, row: UserPresenter.row, json: UserPresenter.json)
    }
}
