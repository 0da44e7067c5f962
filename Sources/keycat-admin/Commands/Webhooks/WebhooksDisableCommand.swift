import KeyCat

/// `keycat-admin webhooks disable ID`: audited as `webhook.endpoint.disable`.
struct WebhooksDisableCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "disable", abstract: "Stop delivering to an endpoint (events meanwhile are not queued for it).",
        arguments: WebhooksCommand.idArgument)

    let id: Int64

    init(parsing arguments: ParsedArguments) throws(UsageError) { id = try arguments.id(at: 0, named: "ID") }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let endpoint = try await keycat.webhookEndpoints.disable(id, by: context.principal)
        context.emit(json: WebhooksCommand.json(endpoint), human: "Disabled endpoint \(endpoint.id) (\(endpoint.url)).")
    }
}
