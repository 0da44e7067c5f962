import Foundation
import Synchronization

/// Where use cases read the time from (architecture §2: "all times come from an injected clock").
///
/// Named `WallClock` to stay clear of the standard library's `Clock`, which measures durations.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until told to move, for tests and simulations.
public final class TestClock: WallClock {
    private let current: Mutex<Date>

    /// A clock showing `start` (by default 2026-01-01T00:00:00Z).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
