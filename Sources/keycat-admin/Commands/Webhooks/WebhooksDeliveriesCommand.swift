import Foundation
import KeyCat

/// `keycat-admin webhooks deliveries [--endpoint ID] [--failed] [--limit N]`: the delivery log,
/// newest first: each delivery's event, status, attempts, last answer and next attempt.
struct WebhooksDeliveriesCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "deliveries", abstract: "Show the delivery log, newest first.",
        options: [
            OptionSpec(name: "endpoint", valueName: "ID", help: "Only this endpoint's deliveries."),
            OptionSpec(name: "limit", valueName: "N", help: "How many, 1–1000 (default 50)."),
        ],
        flags: [FlagSpec(name: "failed", help: "Only deliveries whose last attempt failed (retrying or given up).")])

    let filter: WebhookDeliveryFilter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let endpoint = try arguments.id("endpoint")
        if let endpoint, endpoint <= 0 {
            throw UsageError("--endpoint must be a positive whole number", commandPath: arguments.commandPath)
        }
        filter = WebhookDeliveryFilter(endpointID: endpoint, failedOnly: arguments.flag("failed"),
                                       limit: try arguments.int("limit", in: 1...1_000) ?? 50)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let deliveries = try await keycat.webhookEndpoints.deliveries(filter, by: context.principal)
        var table = TextTable(["ID", "ENDPOINT", "EVENT", "TYPE", "STATUS", "ATTEMPTS", "LAST", "NEXT ATTEMPT"])
        for delivery in deliveries {
            let last = delivery.lastAttempt.map { attempt in
                (attempt.statusCode.map(String.init) ?? "-") + (attempt.error.map { " \($0)" } ?? "") + " \(attempt.durationMilliseconds) ms"
            } ?? "-"
            table.append([String(delivery.id), String(delivery.endpointID), delivery.eventID, delivery.eventType.rawValue,
                          delivery.status.rawValue, String(delivery.attempts), last,
                          delivery.nextAttemptAt.map(Formatting.timestamp) ?? "-"])
        }
        context.emit(json: .object([("items", .array(deliveries.map(Self.json)))]),
                     human: deliveries.isEmpty ? "No deliveries." : table.rendered())
    }

    static func json(_ delivery: WebhookDelivery) -> JSONValue {
        .object([
            ("id", .int(delivery.id)), ("endpoint_id", .int(delivery.endpointID)), ("event_id", .string(delivery.eventID)),
            ("event_type", .string(delivery.eventType.rawValue)),
            ("aggregate", .object([("kind", .string(delivery.aggregate.kind.rawValue)), ("id", .int(delivery.aggregate.id))])),
            ("status", .string(delivery.status.rawValue)), ("attempts", .int(delivery.attempts)),
            ("next_attempt_at", Formatting.timestamp(delivery.nextAttemptAt)), ("created_at", Formatting.timestamp(delivery.createdAt)),
            ("delivered_at", Formatting.timestamp(delivery.deliveredAt)),
            ("last_attempt", delivery.lastAttempt.map { attempt in
                .object([
                    ("started_at", Formatting.timestamp(attempt.startedAt)), ("status_code", attempt.statusCode.map { .int($0) } ?? .null),
                    ("error", .optional(attempt.error)), ("duration_ms", .int(attempt.durationMilliseconds)),
                    ("response_body", .string(attempt.responseBody)),
                ])
            } ?? .null),
        ])
    }
}
