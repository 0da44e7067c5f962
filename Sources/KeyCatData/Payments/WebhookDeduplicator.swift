import Foundation
import KeyCatDomain
import Synchronization

/// Remembers webhook ids already handled, in memory, so a duplicate delivery is recognised.
///
/// For one process and for tests; the orders work keeps webhook ids in the database
/// (DESIGN §2 `WebhookEvent`) so that every process and every restart agrees. Ids are kept for
/// ``retention`` (24 hours by default) after they were first seen.
package final class WebhookDeduplicator: Sendable {
    private let seen = Mutex<[String: Date]>([:])
    private let clock: any WallClock
    package let retention: Duration

    package init(clock: any WallClock, retention: Duration = .seconds(86_400)) {
        self.clock = clock
        self.retention = retention
    }

    /// Records `id` and says whether this is its first delivery. Atomic: of two concurrent
    /// calls with one id, exactly one gets `true`.
    package func isFirstDelivery(of id: String) -> Bool {
        let now = clock.now()
        let horizon = now.addingTimeInterval(-retention.seconds)
        return seen.withLock { seen in
            seen = seen.filter { $0.value > horizon }
            guard seen[id] == nil else { return false }
            seen[id] = now
            return true
        }
    }
}
