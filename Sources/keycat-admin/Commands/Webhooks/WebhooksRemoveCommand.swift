import KeyCat

/// `keycat-admin webhooks remove ID`: audited as `webhook.endpoint.remove`; its delivery log goes
/// with it.
struct WebhooksRemoveCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "remove", abstract: "Delete an endpoint and its delivery log.", arguments: WebhooksCommand.idArgument)

    let id: Int64

    init(parsing arguments: ParsedArguments) throws(UsageError) { id = try arguments.id(at: 0, named: "ID") }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        try await keycat.webhookEndpoints.remove(id, by: context.principal)
        context.emit(json: .object([("id", .int(id)), ("removed", .bool(true))]), human: "Removed endpoint \(id).")
    }
}
