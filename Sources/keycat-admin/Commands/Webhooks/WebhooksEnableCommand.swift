import KeyCat

/// `keycat-admin webhooks enable ID`: audited as `webhook.endpoint.enable`.
struct WebhooksEnableCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "enable", abstract: "Deliver to an endpoint again, its pending deliveries first.", arguments: WebhooksCommand.idArgument)

    let id: Int64

    init(parsing arguments: ParsedArguments) throws(UsageError) { id = try arguments.id(at: 0, named: "ID") }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let endpoint = try await keycat.webhookEndpoints.enable(id, by: context.principal)
        context.emit(json: WebhooksCommand.json(endpoint), human: "Enabled endpoint \(endpoint.id) (\(endpoint.url)).")
    }
}
