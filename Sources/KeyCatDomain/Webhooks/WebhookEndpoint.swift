import Foundation

/// A receiver an operator registered: where KeyCat POSTs the events it selects, signed with its
/// secret (docs/webhooks.md).
public struct WebhookEndpoint: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var url: WebhookURL
    /// The event types it receives.
    public var events: [EventPattern]
    /// The operator's note (who runs it, what for), up to ``maximumDescriptionLength``
    /// characters.
    public var description: String
    /// Whether new events are delivered to it. A disabled endpoint gets no new deliveries and
    /// its pending ones wait until it is enabled again.
    public var isEnabled: Bool
    /// Why it was disabled (an operator, or every delivery failing for the whole retry
    /// schedule); nil while enabled.
    public var disabledReason: String?
    /// When it was added: it receives events that occurred from then on (older ones by replay).
    public var createdAt: Date
    /// The last 2xx it answered.
    public var lastSuccessAt: Date?
    /// Until when the secret it had before its last rotation still signs beside the new one.
    public var previousSecretExpiresAt: Date?

    public init(id: Int64, url: WebhookURL, events: [EventPattern], description: String, isEnabled: Bool,
                disabledReason: String?, createdAt: Date, lastSuccessAt: Date?, previousSecretExpiresAt: Date?) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
        self.isEnabled = isEnabled
        self.disabledReason = disabledReason
        self.createdAt = createdAt
        self.lastSuccessAt = lastSuccessAt
        self.previousSecretExpiresAt = previousSecretExpiresAt
    }

    /// The longest description accepted.
    public static let maximumDescriptionLength = 200

    /// How long the previous secret keeps signing after a rotation.
    public static let secretOverlap: TimeInterval = 24 * 60 * 60

    /// Whether the endpoint selects events of `type`.
    public func receives(_ type: EventType) -> Bool { events.contains { $0.matches(type) } }

    /// The patterns as stored and shown: `order.paid,shipment.*`.
    public var eventList: String { events.map(\.rawValue).joined(separator: ",") }

    /// A description within the rules, trimmed.
    ///
    /// - Throws: `validation` on `description` when longer than ``maximumDescriptionLength`` or
    ///   holding control characters.
    public static func validatedDescription(_ text: String) throws(KeyCatError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maximumDescriptionLength else {
            throw .validation("description", "a description is at most \(maximumDescriptionLength) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .validation("description", "a description may not hold control characters")
        }
        return trimmed
    }
}

/// A new endpoint as the operator describes it, checked.
public struct WebhookEndpointDraft: Sendable, Hashable {
    public var url: WebhookURL
    public var events: [EventPattern]
    public var description: String
    public var secret: WebhookSecret

    public init(url: WebhookURL, events: [EventPattern], description: String, secret: WebhookSecret) {
        self.url = url
        self.events = events
        self.description = description
        self.secret = secret
    }
}
