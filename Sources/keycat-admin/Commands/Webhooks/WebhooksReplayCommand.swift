import Foundation
import KeyCat

/// `keycat-admin webhooks replay --event ID | --since TIME [--endpoint ID]`: sends events again
/// as new deliveries (same webhook-id). Audited as `webhook.replay`.
struct WebhooksReplayCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "replay", abstract: "Send events again: one event, or every event since a time.",
        discussion: """
            Examples: keycat-admin webhooks replay --event evt_0123…
                      keycat-admin webhooks replay --since 2026-11-28T09:00:00Z --endpoint 2
            Without --endpoint, every enabled endpoint that selects the event's type gets it again.
            """,
        options: [
            OptionSpec(name: "event", valueName: "ID", help: "The event to send again (evt_…)."),
            OptionSpec(name: "since", valueName: "TIME", help: "Every event since then (a day in Asia/Seoul, or ISO 8601)."),
            OptionSpec(name: "endpoint", valueName: "ID", help: "Only this endpoint."),
        ])

    let selection: WebhookReplaySelection
    let endpoint: Int64?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let event = arguments.string("event")
        let since = try arguments.date("since")
        switch (event, since) {
        case let (event?, nil): selection = .event(id: event)
        case let (nil, since?): selection = .since(since)
        default: throw UsageError("name either --event ID or --since TIME", commandPath: arguments.commandPath)
        }
        endpoint = try arguments.id("endpoint")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let created = try await keycat.webhookEndpoints.replay(selection, endpoint: endpoint, by: context.principal)
        context.emit(json: .object([("deliveries", .int(created))]),
                     human: "Queued \(created) deliver\(created == 1 ? "y" : "ies"); the servers' delivery loop sends them.")
    }
}
