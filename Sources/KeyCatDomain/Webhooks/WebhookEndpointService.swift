import Foundation

/// The operators' webhook endpoints (docs/webhooks.md): add, list, enable, disable, rotate a
/// secret, remove, read the delivery log and replay. Every change is audited; every call needs
/// an admin.
public struct WebhookEndpointService: Sendable {
    /// The most events one `replay(since:)` sends again.
    public static let maximumReplayEvents = 10_000

    let repository: any WebhookEndpointRepository
    let clock: any WallClock
    let developmentHosts: Set<String>
    let makeSecret: @Sendable () throws(KeyCatError) -> WebhookSecret

    /// - Parameters:
    ///   - developmentHosts: hosts that may be reached over `http` and on private addresses.
    ///   - makeSecret: a new random secret (``WebhookSecret/generatedByteCount`` bytes).
    public init(repository: any WebhookEndpointRepository, clock: any WallClock, developmentHosts: Set<String>,
                makeSecret: @escaping @Sendable () throws(KeyCatError) -> WebhookSecret) {
        self.repository = repository
        self.clock = clock
        self.developmentHosts = Set(developmentHosts.map(WebhookURL.normalizedHost))
        self.makeSecret = makeSecret
    }

    /// An endpoint with the secret that signs for it: what `add` and `rotateSecret` return, the
    /// only time the secret is shown.
    public struct WithSecret: Sendable, Hashable {
        public var endpoint: WebhookEndpoint
        public var secret: WebhookSecret
    }

    /// Registers an endpoint, enabled, receiving the events of `events` that occur from now on.
    ///
    /// - Parameters:
    ///   - events: patterns as `EventPattern.list` reads them (`order.paid,shipment.*`).
    ///   - secret: `whsec_…` to sign with; nil makes one of 32 random bytes.
    /// - Throws: `forbidden` unless an admin; `validation` on `url`, `events`, `secret` or
    ///   `description`, before anything is stored.
    public func add(url: String, events: String, secret: String? = nil, description: String = "",
                    by principal: Principal) async throws(KeyCatError) -> WithSecret {
        try requireAdmin(principal)
        let draft = WebhookEndpointDraft(
            url: try WebhookURL(url, developmentHosts: developmentHosts), events: try EventPattern.list(events),
            description: try WebhookEndpoint.validatedDescription(description), secret: try secretOrNew(secret))
        let endpoint = try await repository.add(draft, clock: clock, audit: AuditEntry(
            actor: principal.auditActor, action: "webhook.endpoint.add", target: "webhook_endpoint:new",
            detail: "url=\(draft.url) events=\(draft.events.map(\.rawValue).joined(separator: ","))", at: clock.now()))
        return WithSecret(endpoint: endpoint, secret: draft.secret)
    }

    /// Every endpoint, oldest first. Secrets are never listed.
    public func endpoints(by principal: Principal) async throws(KeyCatError) -> [WebhookEndpoint] {
        try requireAdmin(principal)
        return try await repository.endpoints()
    }

    /// The endpoint `id`.
    ///
    /// - Throws: `notFound`.
    public func endpoint(_ id: Int64, by principal: Principal) async throws(KeyCatError) -> WebhookEndpoint {
        try requireAdmin(principal)
        guard let endpoint = try await repository.endpoint(id: id) else { throw .notFound("webhook endpoint", id) }
        return endpoint
    }

    /// Stops delivering to the endpoint: events that occur while it is disabled are not queued
    /// for it (replay them with `since:`); pending deliveries wait.
    ///
    /// - Throws: `forbidden`, `notFound`.
    public func disable(_ id: Int64, by principal: Principal) async throws(KeyCatError) -> WebhookEndpoint {
        try requireAdmin(principal)
        let now = clock.now()
        return try await repository.setEnabled(false, endpoint: id, reason: "disabled by \(principal.auditActor)", audit: AuditEntry(
            actor: principal.auditActor, action: "webhook.endpoint.disable", target: "webhook_endpoint:\(id)", at: now))
    }

    /// Delivers to the endpoint again, its pending deliveries first.
    ///
    /// - Throws: `forbidden`, `notFound`.
    public func enable(_ id: Int64, by principal: Principal) async throws(KeyCatError) -> WebhookEndpoint {
        try requireAdmin(principal)
        let now = clock.now()
        return try await repository.setEnabled(true, endpoint: id, reason: nil, audit: AuditEntry(
            actor: principal.auditActor, action: "webhook.endpoint.enable", target: "webhook_endpoint:\(id)", at: now))
    }

    /// A new secret for the endpoint. For ``WebhookEndpoint/secretOverlap`` (24 h) deliveries are
    /// signed with both, two `v1,` signatures in one header, so a receiver can switch when it is
    /// ready.
    ///
    /// - Throws: `forbidden`, `notFound`, `validation` on `secret`.
    public func rotateSecret(_ id: Int64, to secret: String? = nil, by principal: Principal) async throws(KeyCatError) -> WithSecret {
        try requireAdmin(principal)
        let newSecret = try secretOrNew(secret)
        let now = clock.now()
        let endpoint = try await repository.rotateSecret(
            endpoint: id, to: newSecret, previousUntil: now.addingTimeInterval(WebhookEndpoint.secretOverlap), audit: AuditEntry(
                actor: principal.auditActor, action: "webhook.endpoint.rotate_secret", target: "webhook_endpoint:\(id)", at: now))
        return WithSecret(endpoint: endpoint, secret: newSecret)
    }

    /// Deletes the endpoint and its delivery log.
    ///
    /// - Throws: `forbidden`, `notFound`.
    public func remove(_ id: Int64, by principal: Principal) async throws(KeyCatError) {
        try requireAdmin(principal)
        let now = clock.now()
        try await repository.remove(endpoint: id, audit: AuditEntry(
            actor: principal.auditActor, action: "webhook.endpoint.remove", target: "webhook_endpoint:\(id)", at: now))
    }

    /// The delivery log, newest first.
    ///
    /// - Throws: `forbidden`; `validation` on `limit` outside 1–1,000.
    public func deliveries(_ filter: WebhookDeliveryFilter = WebhookDeliveryFilter(),
                           by principal: Principal) async throws(KeyCatError) -> [WebhookDelivery] {
        try requireAdmin(principal)
        guard (1...1_000).contains(filter.limit) else { throw .validation("limit", "limit must be 1–1,000") }
        return try await repository.deliveries(filter)
    }

    /// Sends events again, as new deliveries due at once (same `webhook-id`, so a receiver that
    /// already has an event ignores it).
    ///
    /// - Parameter endpoint: only this endpoint; else every enabled endpoint that selects the
    ///   event's type.
    /// - Throws: `forbidden`; `notFound` for an unknown event or endpoint; `validation` on
    ///   `since` for a time in the future or more than ``maximumReplayEvents`` events.
    /// - Returns: how many deliveries were created.
    public func replay(_ selection: WebhookReplaySelection, endpoint: Int64? = nil,
                       by principal: Principal) async throws(KeyCatError) -> Int {
        try requireAdmin(principal)
        let now = clock.now()
        let detail: String
        switch selection {
        case let .event(id):
            guard !id.isEmpty, id.count <= 100 else { throw .validation("event", "name an event id (evt_…)") }
            detail = "event=\(id)"
        case let .since(date):
            guard date <= now else { throw .validation("since", "--since must not be in the future") }
            detail = "since=\(date.formatted(.iso8601))"
        }
        return try await repository.replay(selection, endpoint: endpoint, at: now, audit: AuditEntry(
            actor: principal.auditActor, action: "webhook.replay", target: endpoint.map { "webhook_endpoint:\($0)" } ?? "",
            detail: detail, at: now))
    }

    /// The secret given, checked, or a new one.
    private func secretOrNew(_ text: String?) throws(KeyCatError) -> WebhookSecret {
        if let text { return try WebhookSecret(text) }
        return try makeSecret()
    }

    private func requireAdmin(_ principal: Principal) throws(KeyCatError) {
        guard principal.role == .admin else { throw KeyCatError(.forbidden, "only an admin may manage webhook endpoints") }
    }
}
