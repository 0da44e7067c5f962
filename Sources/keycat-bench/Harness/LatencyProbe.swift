import Foundation
import Synchronization

/// How long a plain task waits for a thread of Swift's global executor — the threads a server's
/// request handlers share — while something else runs: every 2 ms it starts a detached task that
/// does nothing and times how long until it has run. When storage calls held those threads, this
/// is what grew (a route that never touches KeyCat answered as late as the database).
final class LatencyProbe: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let samples = Mutex<[Duration]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts sampling at once.
    static func start() -> LatencyProbe {
        let probe = LatencyProbe()
        probe.task.withLock {
            $0 = Task.detached { [probe] in
                let clock = ContinuousClock()
                while !probe.stopped.load(ordering: .relaxed) {
                    try? await Task.sleep(for: .milliseconds(2))
                    let start = clock.now
                    await Task.detached {}.value
                    let waited = clock.now - start
                    probe.samples.withLock { $0.append(waited) }
                }
            }
        }
        return probe
    }

    /// Stops sampling and answers the 99th percentile of the waits (zero when none was taken).
    func stop() async -> Duration {
        stopped.store(true, ordering: .relaxed)
        await task.withLock { $0 }?.value
        let sorted = samples.withLock { $0 }.sorted()
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }

    /// The probe's p99 with nothing else running, over `duration`.
    static func idle(for duration: Duration = .milliseconds(500)) async -> Duration {
        let probe = start()
        try? await Task.sleep(for: duration)
        return await probe.stop()
    }
}
