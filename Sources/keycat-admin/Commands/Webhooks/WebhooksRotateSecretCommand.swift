import KeyCat

/// `keycat-admin webhooks rotate-secret ID [--secret -]`: audited as
/// `webhook.endpoint.rotate_secret`; the old secret keeps signing beside the new one for 24 h.
struct WebhooksRotateSecretCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "rotate-secret", abstract: "Give an endpoint a new secret; the old one also signs for 24 hours.",
        arguments: WebhooksCommand.idArgument,
        options: [WebhooksCommand.secretOption])

    let id: Int64
    let readsSecret: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.id(at: 0, named: "ID")
        readsSecret = try WebhooksCommand.readsSecret(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let secret = try readsSecret ? WebhooksCommand.secret(from: context) : nil
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
