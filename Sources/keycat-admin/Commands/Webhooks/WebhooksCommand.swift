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

    /// `--secret -`: the signing secret, read from standard input (made when left out).
    static let secretOption = OptionSpec(
        name: "secret", valueName: "-",
        help: "Read the signing secret (whsec_ and the base64 of 24–64 bytes) from standard input; made when left out.")

    /// Whether `--secret -` was given. A secret written as the option's value is refused: every
    /// user of the machine can read a process's arguments (`ps`), as they cannot its input.
    static func readsSecret(_ arguments: ParsedArguments) throws(UsageError) -> Bool {
        guard let value = arguments.string("secret") else { return false }
        guard value == "-" else {
            throw UsageError("--secret takes -, with the secret on standard input: an argument shows in ps to every user of the machine",
                             commandPath: arguments.commandPath)
        }
        return true
    }

    /// The signing secret `--secret -` asks for, read from standard input.
    static func secret(from context: CommandContext) throws(KeyCatError) -> String {
        guard let secret = context.readSecret("Signing secret (whsec_…): "), !secret.isEmpty else {
            throw KeyCatError.validation("secret", "write the signing secret on standard input")
        }
        return secret
    }

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
