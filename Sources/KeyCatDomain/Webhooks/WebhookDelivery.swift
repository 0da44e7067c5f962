import Foundation

/// One event on its way to one endpoint (the delivery log: `keycat-admin webhooks deliveries`).
public struct WebhookDelivery: Sendable, Hashable, Identifiable {
    /// Where a delivery stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Waiting for its next attempt (or in one now, under a lease).
        case pending
        /// The endpoint answered 2xx.
        case delivered
        /// Every attempt of the retry schedule failed; only a replay sends it again.
        case failed
    }

    public var id: Int64
    public var endpointID: Int64
    public var eventID: String
    public var eventType: EventType
    public var aggregate: EventAggregate
    public var status: Status
    /// Attempts made (or begun) so far.
    public var attempts: Int
    /// When the next attempt is due; nil once delivered or failed.
    public var nextAttemptAt: Date?
    public var createdAt: Date
    public var deliveredAt: Date?
    /// The last attempt's outcome, nil before the first.
    public var lastAttempt: WebhookAttempt?

    public init(id: Int64, endpointID: Int64, eventID: String, eventType: EventType, aggregate: EventAggregate, status: Status,
                attempts: Int, nextAttemptAt: Date?, createdAt: Date, deliveredAt: Date?, lastAttempt: WebhookAttempt?) {
        self.id = id
        self.endpointID = endpointID
        self.eventID = eventID
        self.eventType = eventType
        self.aggregate = aggregate
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.lastAttempt = lastAttempt
    }
}

/// What one attempt came to.
public struct WebhookAttempt: Sendable, Hashable {
    /// The most of a response body the log keeps, in bytes.
    public static let keptResponseBytes = 4_096

    /// When the request started.
    public var startedAt: Date
    /// From the start of the request (the address check included) to its answer or failure.
    public var durationMilliseconds: Int64
    /// The HTTP status, nil when no answer came.
    public var statusCode: Int?
    /// Why it failed without an answer, or what was wrong with the answer; nil for a 2xx.
    public var error: String?
    /// The start of the response body (at most ``keptResponseBytes``), as UTF-8 text.
    public var responseBody: String

    public init(startedAt: Date, durationMilliseconds: Int64, statusCode: Int?, error: String?, responseBody: String) {
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.statusCode = statusCode
        self.error = error
        self.responseBody = responseBody
    }

    /// Whether the endpoint took the event: a 2xx (a 3xx is not followed, and fails).
    public var succeeded: Bool { statusCode.map { (200..<300).contains($0) } ?? false }
}

/// Which deliveries `webhooks deliveries` lists.
public struct WebhookDeliveryFilter: Sendable, Hashable {
    public var endpointID: Int64?
    /// Only deliveries whose last attempt failed (pending retries and given-up ones).
    public var failedOnly: Bool
    /// 1–1,000, newest first.
    public var limit: Int

    public init(endpointID: Int64? = nil, failedOnly: Bool = false, limit: Int = 50) {
        self.endpointID = endpointID
        self.failedOnly = failedOnly
        self.limit = limit
    }
}

/// What a replay sends again: one event, or every event since a time.
public enum WebhookReplaySelection: Sendable, Hashable {
    case event(id: String)
    case since(Date)
}
