import KeyCat

/// `keycat-admin webhooks list`: every endpoint, without secrets.
struct WebhooksListCommand: AdminCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List the endpoints (secrets are never shown).")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let endpoints = try await keycat.webhookEndpoints.endpoints(by: context.principal)
        var table = TextTable(["ID", "URL", "EVENTS", "ENABLED", "LAST 2XX", "DESCRIPTION"])
        for endpoint in endpoints {
            table.append([String(endpoint.id), endpoint.url.rawValue, endpoint.eventList,
                          endpoint.isEnabled ? "yes" : "no (\(endpoint.disabledReason ?? "disabled"))",
                          endpoint.lastSuccessAt.map(Formatting.timestamp) ?? "-", endpoint.description])
        }
        context.emit(json: .object([("items", .array(endpoints.map(WebhooksCommand.json)))]),
                     human: endpoints.isEmpty ? "No endpoints yet: add one with 'keycat-admin webhooks add URL --events …'." : table.rendered())
    }
}
