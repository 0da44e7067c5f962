import KeyCat

/// `keycat-admin webhooks add URL --events P[,P…] [--secret -] [--description D]`: audited as
/// `webhook.endpoint.add`. The secret (made when not given on standard input) is printed this once.
struct WebhooksAddCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "add", abstract: "Register an endpoint for some event types; prints its signing secret once.",
        discussion: """
            Example: keycat-admin webhooks add https://hooks.example.com/keycat --events order.paid,shipment.*
            The endpoint receives the events that occur from now on; older ones with 'webhooks replay'.
            """,
        arguments: [ArgumentSpec(name: "URL", help: "Where to POST: https (http only for an allowed development host).")],
        options: [
            OptionSpec(name: "events", valueName: "P", help: "Event types, comma-separated: order.paid, shipment.*, or *.", isRequired: true),
            WebhooksCommand.secretOption,
            OptionSpec(name: "description", valueName: "D", help: "A note for operators, up to 200 characters."),
        ])

    let url: String
    let events: String
    let readsSecret: Bool
    let description: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        url = arguments.positionals[0]
        events = try arguments.requiredString("events")
        readsSecret = try WebhooksCommand.readsSecret(arguments)
        description = arguments.string("description") ?? ""
    }

    func run(_ context: CommandContext) async throws {
        let secret = try readsSecret ? WebhooksCommand.secret(from: context) : nil
        let keycat = try await context.openForWebhooks()
        defer { keycat.close() }
        let added = try await keycat.webhookEndpoints.add(url: url, events: events, secret: secret, description: description,
                                                          by: context.principal)
        guard case let .object(fields) = WebhooksCommand.json(added.endpoint) else { return }
        context.emit(json: .object(fields + [("secret", .string(added.secret.rawValue))]), human: """
            Added endpoint \(added.endpoint.id): \(added.endpoint.url) for \(added.endpoint.eventList).
            Signing secret (shown only now; give it to the receiver): \(added.secret.rawValue)
            """)
    }
}
