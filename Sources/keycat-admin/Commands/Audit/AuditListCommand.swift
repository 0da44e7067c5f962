import KeyCat

/// `keycat-admin audit list [--actor A] [--action X] [--target T] [--since D] [--limit N] [--cursor C]`:
/// the audit log, newest first, one page at a time. Reads only.
struct AuditListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List audit entries, newest first.",
        discussion: "Filters match exactly; --since takes 2026-11-01 (a day in Asia/Seoul) or an ISO 8601 time.",
        options: [
            OptionSpec(name: "actor", valueName: "A", help: "Only this actor, e.g. cli:root or admin:3."),
            OptionSpec(name: "action", valueName: "X", help: "Only this action, e.g. order.refund."),
            OptionSpec(name: "target", valueName: "T", help: "Only this target, e.g. order:42."),
            OptionSpec(name: "since", valueName: "D", help: "Only entries at or after this date or time."),
        ] + PagingOptions.options)

    let filter: AuditFilter
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        filter = AuditFilter(actor: arguments.string("actor"), action: arguments.string("action"),
                             target: arguments.string("target"), since: try arguments.date("since"))
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.audit.list(filter, limit: limit, cursor: cursor, by: context.operatorPrincipal)
        context.emitPage(
            page, headers: ["ID", "AT", "ACTOR", "ACTION", "TARGET", "DETAIL"],
            row: { [String($0.id ?? 0), Formatting.timestamp($0.at), $0.actor, $0.action, $0.target, $0.detail] },
            json: { entry in
                .object([
                    ("id", .int(entry.id ?? 0)), ("at", .string(Formatting.timestamp(entry.at))), ("actor", .string(entry.actor)),
                    ("action", .string(entry.action)), ("target", .string(entry.target)), ("detail", .string(entry.detail)),
                ])
            })
    }
}
