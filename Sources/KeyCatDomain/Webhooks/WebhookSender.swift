import Foundation

/// Sends one signed delivery and says what came of it: the seam between the delivery loop and
/// the network. KeyCat's own sends over HTTPS with the SSRF guard (docs/webhooks.md); an
/// embedder may pass another (an egress proxy's client) in ``WebhookDeliveryOptions/sender``.
public protocol WebhookSender: Sendable {
    /// Sends `request` and reports the attempt, or nil when the calling task was cancelled
    /// before an answer came (the attempt is then not counted, and the delivery is sent again).
    /// A sender never throws: every failure is an attempt with an ``WebhookAttempt/error``.
    func send(_ request: WebhookRequest) async -> WebhookAttempt?
}

/// One delivery as it goes on the wire.
public struct WebhookRequest: Sendable, Hashable {
    public var url: WebhookURL
    /// `webhook-id`, `webhook-timestamp`, `webhook-signature`, `content-type`, `user-agent`.
    public var headers: [String: String]
    /// ``WebhookPayload/body(for:)``.
    public var body: Data
    /// The longest the whole exchange may take.
    public var timeout: Duration
    /// When the attempt started (the shop's clock).
    public var startedAt: Date

    public init(url: WebhookURL, headers: [String: String], body: Data, timeout: Duration, startedAt: Date) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.startedAt = startedAt
    }
}

/// How the delivery loop (`KeyCat.deliverWebhooks`) runs. The defaults suit a shop; tests
/// shorten the waits.
public struct WebhookDeliveryOptions: Sendable {
    /// The longest one request may take, connection included. Default 10 s.
    public var requestTimeout: Duration = .seconds(10)
    /// The most requests in flight to one endpoint, across every server. Default 4.
    public var concurrencyPerEndpoint: Int = 4
    /// The most requests this loop has in flight. Default 64.
    public var maximumInFlight: Int = 64
    /// How long a claimed delivery stays this loop's before another may take it: longer than
    /// ``requestTimeout``, so only a loop that died loses its lease. Default 60 s.
    public var lease: TimeInterval = 60
    /// When failed attempts are tried again. Default ``WebhookRetrySchedule/standard``.
    public var schedule: WebhookRetrySchedule = .standard
    /// The longest the loop sleeps without reading the log and the due deliveries again (a
    /// safety net for a lost wake-up, never the way work normally arrives). Default 5 s.
    public var idleCheck: Duration = .seconds(5)
    /// What sends; nil for KeyCat's HTTPS sender.
    public var sender: (any WebhookSender)?
    /// This loop's name in leases (`lease_owner`); nil for the host name and a random suffix.
    public var workerName: String?

    public init() {}

    /// - Throws: `validation` for a value out of range.
    public func validated() throws(KeyCatError) -> WebhookDeliveryOptions {
        guard requestTimeout > .zero, requestTimeout <= .seconds(120) else {
            throw .validation("request_timeout", "the request timeout is more than 0 and at most 120 seconds")
        }
        guard (1...64).contains(concurrencyPerEndpoint) else {
            throw .validation("concurrency_per_endpoint", "the concurrency per endpoint is 1–64")
        }
        guard (1...10_000).contains(maximumInFlight) else { throw .validation("maximum_in_flight", "the in-flight cap is 1–10,000") }
        guard lease > Double(requestTimeout.components.seconds) + 1 else {
            throw .validation("lease", "the lease must outlast the request timeout")
        }
        return self
    }
}
