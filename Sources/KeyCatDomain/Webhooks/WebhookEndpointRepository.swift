import Foundation

/// Where endpoints and their delivery log are kept. Every change is one transaction with its
/// audit entry.
public protocol WebhookEndpointRepository: Sendable {
    /// Stores a new endpoint, enabled, created at `clock`'s time once no fan-out of events runs
    /// beside the write: every event that occurs after that time is fanned out after the
    /// endpoint exists, so none is missed; the audit entry takes the same time.
    func add(_ draft: WebhookEndpointDraft, clock: any WallClock, audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint

    /// Every endpoint, oldest first.
    func endpoints() async throws(KeyCatError) -> [WebhookEndpoint]

    /// The endpoint `id`, nil when there is none.
    func endpoint(id: Int64) async throws(KeyCatError) -> WebhookEndpoint?

    /// Enables or disables the endpoint.
    ///
    /// - Throws: `notFound` for an unknown id.
    func setEnabled(_ enabled: Bool, endpoint id: Int64, reason: String?, audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint

    /// Replaces the secret, keeping the old one signing beside it until `previousUntil`.
    ///
    /// - Throws: `notFound` for an unknown id.
    func rotateSecret(endpoint id: Int64, to secret: WebhookSecret, previousUntil: Date,
                      audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint

    /// Deletes the endpoint and its deliveries.
    ///
    /// - Throws: `notFound` for an unknown id.
    func remove(endpoint id: Int64, audit: AuditEntry) async throws(KeyCatError)

    /// Deliveries, newest first.
    func deliveries(_ filter: WebhookDeliveryFilter) async throws(KeyCatError) -> [WebhookDelivery]

    /// Creates a new delivery of each selected event for each endpoint that selects its type
    /// (only `endpoint` when given), due at once.
    ///
    /// - Throws: `notFound` for an unknown endpoint or event; `validation` on `since` when more
    ///   than ``WebhookEndpointService/maximumReplayEvents`` events match.
    /// - Returns: how many deliveries it created.
    func replay(_ selection: WebhookReplaySelection, endpoint: Int64?, at date: Date, audit: AuditEntry) async throws(KeyCatError) -> Int
}
