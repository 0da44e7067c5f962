import Foundation
import KeyCatDomain

/// One claimed attempt: a delivery under this worker's lease, with what it takes to send it.
package struct WebhookJob: Sendable, Hashable {
    package let deliveryID: Int64
    /// This attempt's number, 1 for the first.
    package let attempt: Int
    package let endpointID: Int64
    package let url: WebhookURL
    /// The secrets to sign with: the current one, and the previous one during its 24 h overlap.
    package let secrets: [WebhookSecret]
    package let event: DomainEvent
    /// When the delivery was created (an endpoint is disabled when none of its 2xx came after).
    package let createdAt: Date
}

/// What a ``WebhookSender`` hands back for one job: the attempt, or nil when it was interrupted
/// before an answer (the delivery loop stopping), which does not count as an attempt.
package typealias WebhookJobOutcome = (job: WebhookJob, attempt: WebhookAttempt?)
