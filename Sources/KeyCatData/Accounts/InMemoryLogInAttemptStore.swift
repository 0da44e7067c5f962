import Foundation
import KeyCatDomain
import Synchronization

/// Log-in attempts counted in memory, for tests of the use cases without a file. Behaves as
/// ``SQLLogInAttemptStore`` does.
package final class InMemoryLogInAttemptStore: LogInAttemptStore {
    private struct Window {
        var start: Date
        var attempts: Int
        var last: Date
    }

    private let windows = Mutex<[LogInThrottleKey.ID: Window]>([:])

    package init() {}

    package func admit(_ keys: [LogInThrottleKey], at now: Date, window: TimeInterval) throws(KeyCatError) -> TimeInterval? {
        windows.withLock { windows -> TimeInterval? in
            let open = keys.map { key in windows[key.id].flatMap { $0.start + window > now ? $0 : nil } }
            let wait = zip(keys, open).compactMap { key, current -> TimeInterval? in
                guard let current, current.attempts >= key.limit else { return nil }
                guard let slowDown = key.slowDown else { return current.start.addingTimeInterval(window).timeIntervalSince(now) }
                let allowedAt = current.last.addingTimeInterval(slowDown.delay(excess: current.attempts - key.limit + 1))
                return allowedAt > now ? allowedAt.timeIntervalSince(now) : nil
            }.max()
            if let wait { return wait }
            for (key, current) in zip(keys, open) {
                var next = current ?? Window(start: now, attempts: 0, last: now)
                next.attempts += 1
                next.last = now
                windows[key.id] = next
            }
            return nil
        }
    }

    package func succeeded(clearing cleared: LogInThrottleKey, refunding refunded: [LogInThrottleKey], at now: Date) throws(KeyCatError) {
        windows.withLock { windows in
            windows[cleared.id] = nil
            for key in refunded {
                if let attempts = windows[key.id]?.attempts { windows[key.id]?.attempts = max(0, attempts - 1) }
            }
        }
    }
}

extension LogInThrottleKey {
    /// Scope and value, without the limit: one window per email or client.
    struct ID: Hashable {
        let scope: String
        let value: String
    }

    var id: ID { ID(scope: scope, value: value) }
}
