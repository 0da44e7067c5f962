import KeyCat

/// `keycat-admin users list [--nick N] [--limit N] [--cursor C]`: accounts in id order,
/// withdrawn ones included; with `--nick`, those whose nick contains it.
struct UsersListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List accounts in id order.",
        discussion: """
            --nick finds the accounts whose nick contains the text: Latin letters in either case
            (KEY finds keycat), Hangul syllables and every other character exactly (민 finds 김민아).
            """,
        options: [OptionSpec(name: "nick", valueName: "N", help: "Only accounts whose nick contains N.")] + PagingOptions.options)

    let nick: String?
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        nick = arguments.string("nick")
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.accounts.listUsers(nick: nick, limit: limit, cursor: cursor, by: context.principal)
        context.emitPage(page, headers: UserPresenter.headers, row: UserPresenter.row, json: UserPresenter.json)
    }
}
