/// Waits for a while. Injected wherever code backs off, so tests advance a test clock instead of
/// really sleeping.
public protocol Sleeper: Sendable {
    /// Suspends for `duration`, or less when the task is cancelled.
    func sleep(for duration: Duration) async
}

/// Really sleeps (`Task.sleep`).
public struct TaskSleeper: Sleeper {
    public init() {}

    public func sleep(for duration: Duration) async {
        try? await Task.sleep(for: duration)
    }
}
