import Foundation
import KeyCat

/// `keycat-admin webhooks`: the endpoints KeyCat delivers events to (docs/webhooks.md). The
/// delivering itself is done by the servers' delivery loop (`KeyCat.deliverWebhooks`).
struct WebhooksCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "webhooks", abstract: "Endpoints that receive events: add, list, enable, disable, rotate secrets, deliveries, replay.",
        discussion: """
            Deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp,
            webhook-signature) and retried for about three days. Endpoint URLs must be https;
            hosts named in KEYCAT_WEBHOOK_ALLOWED_HOSTS (comma-separated, for development) may
            use http and loopback or private addresses.
            """,
        subcommands: [
            WebhooksAddCommand.self, WebhooksListCommand.self, WebhooksDisableCommand.self, WebhooksEnableCommand.self,
            WebhooksRotateSecretCommand.self, WebhooksRemoveCommand.self, WebhooksDeliveriesCommand.self,
            WebhooksReplayCommand.self,
        ])

    /// The endpoint id argument of the commands that take one.
    static let idArgument = [ArgumentSpec(name: "ID", help: "The endpoint id (webhooks list).")]

    static func json(_ endpoint: WebhookEndpoint) -> JSONValue {
        .object([
            ("id", .int(endpoint.id)), ("url", .string(endpoint.url.rawValue)), ("events", .string(endpoint.eventList)),
            ("description", .string(endpoint.description)), ("enabled", .bool(endpoint.isEnabled)),
            ("disabled_reason", .optional(endpoint.disabledReason)), ("created_at", Formatting.timestamp(endpoint.createdAt)),
            ("last_success_at", Formatting.timestamp(endpoint.lastSuccessAt)),
            ("previous_secret_expires_at", Formatting.timestamp(endpoint.previousSecretExpiresAt)),
        ])
    }

    /// The development hosts from `KEYCAT_WEBHOOK_ALLOWED_HOSTS` (comma-separated).
    static func developmentHosts(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        Set((environment["KEYCAT_WEBHOOK_ALLOWED_HOSTS"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }
}

extension CommandContext {
    /// ``openExisting()`` with the development hosts of `KEYCAT_WEBHOOK_ALLOWED_HOSTS`, which
    /// `webhooks add` checks URLs against.
    func openForWebhooks() async throws -> KeyCat {
        try requireFile()
        var configuration = configuration()
        configuration.createIfMissing = false
        configuration.webhookDevelopmentHosts = WebhooksCommand.developmentHosts()
        return try await KeyCat.open(configuration)
    }
}

/// `keycat-admin webhooks add URL --events P[,P…] [--secret whsec_…] [--description D]`: audited
/// as `webhook.endpoint.add`. The secret (made when not given) is printed this once.
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
            OptionSpec(name: "secret", valueName: "S", help: "whsec_ and the base64 of 24–64 bytes; made when left out."),
            OptionSpec(name: "description", valueName: "D", help: "A note for operators, up to 200 characters."),
        ])

    let url: String
    let events: String
    let secret: String?
    let description: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        url = arguments.positionals[0]
        events = try arguments.requiredString("events")
        secret = arguments.string("secret")
        description = arguments.string("description") ?? ""
    }

    func run(_ context: CommandContext) async throws {
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

/// `keycat-admin webhooks rotate-secret ID [--secret whsec_…]`: audited as
/// `webhook.endpoint.rotate_secret`; the old secret keeps signing beside the new one for 24 h.
struct WebhooksRotateSecretCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "rotate-secret", abstract: "Give an endpoint a new secret; the old one also signs for 24 hours.",
        arguments: WebhooksCommand.idArgument,
        options: [OptionSpec(name: "secret", valueName: "S", help: "The new secret (whsec_…); made when left out.")])

    let id: Int64
    let secret: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.id(at: 0, named: "ID")
        secret = arguments.string("secret")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let rotated = try await keycat.webhookEndpoints.rotateSecret(id, to: secret, by: context.principal)
        guard case let .object(fields) = WebhooksCommand.json(rotated.endpoint) else { return }
        let until = rotated.endpoint.previousSecretExpiresAt.map(Formatting.timestamp) ?? "-"
        context.emit(json: .object(fields + [("secret", .string(rotated.secret.rawValue))]), human: """
            New secret for endpoint \(rotated.endpoint.id) (shown only now): \(rotated.secret.rawValue)
            The previous secret also signs until \(until).
            """)
    }
}

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
