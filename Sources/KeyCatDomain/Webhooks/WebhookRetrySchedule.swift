import Foundation

/// When a failed delivery is tried again (docs/webhooks.md "Retries"): after the first attempt
/// fails, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h and 24 h later — ten attempts over
/// 3 days and 3 hours, as Stripe spreads its own over about three days. A delivery whose last
/// attempt fails is `failed` and is not tried again (an operator replays it).
///
/// An endpoint whose delivery exhausts the schedule while the endpoint has answered no 2xx since
/// that delivery was created — every delivery failing for the whole three days — is disabled,
/// with an audit entry (`webhook.endpoint.auto_disable`); enabling it again resumes its pending
/// deliveries.
public struct WebhookRetrySchedule: Sendable, Hashable {
    /// The pauses after each failed attempt but the last; attempts = pauses + 1.
    public let delays: [TimeInterval]

    public init(delays: [TimeInterval]) { self.delays = delays }

    /// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h.
    public static let standard = WebhookRetrySchedule(delays: [
        5, 5 * 60, 30 * 60, 2 * 3_600, 5 * 3_600, 10 * 3_600, 10 * 3_600, 24 * 3_600, 24 * 3_600,
    ])

    /// How many attempts a delivery gets.
    public var maximumAttempts: Int { delays.count + 1 }

    /// The pause after failed attempt number `attempt` (1-based), or nil when it was the last.
    public func delay(afterAttempt attempt: Int) -> TimeInterval? {
        guard attempt >= 1, attempt <= delays.count else { return nil }
        return delays[attempt - 1]
    }

    /// From the first attempt to the last.
    public var span: TimeInterval { delays.reduce(0, +) }
}
