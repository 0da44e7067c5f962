import Dispatch
import Foundation
import Synchronization

/// What the bench undoes when it is stopped with Ctrl-C or `kill` (`SIGINT`, `SIGTERM`), which
/// otherwise end the process before any `defer` runs: its Postgres schemas (``BenchSchema``) and
/// its temporary directory, whose SQLite file holds a million products. `kill -9` cannot be
/// caught: what it leaves, the next run removes (``BenchSchema``, ``BenchDirectory``).
enum StopCleanup {
    /// What to undo, by token, until the run undoes it itself.
    private static let pending = Mutex<[UUID: @Sendable () -> Void]>([:])

    /// Whether a stop is being handled: the undoing is under way and ends the process.
    private static let stopping = Atomic<Bool>(false)

    /// Has `undo` run if the bench is stopped before ``cancel(_:)`` is called with the token
    /// returned.
    static func register(_ undo: @escaping @Sendable () -> Void) -> UUID {
        _ = signalSources
        let token = UUID()
        pending.withLock { $0[token] = undo }
        return token
    }

    /// Forgets what `token` registered (the run is undoing it itself).
    static func cancel(_ token: UUID) {
        pending.withLock { _ = $0.removeValue(forKey: token) }
    }

    /// Returns at once unless a stop is being handled; then never, leaving the process's end to
    /// the stop. For the bench's way out: a run that fails because its schema was dropped under
    /// it, or that finishes meanwhile, must not exit first with a status of its own. It holds
    /// the calling thread, the bench's main, only in the moments before the stop ends the process.
    static func yieldToStop() {
        guard stopping.load(ordering: .acquiring) else { return }
        while true { sleep(3_600) }
    }

    /// Installed with the first registration and kept for the life of the process: on `SIGINT`
    /// or `SIGTERM`, runs everything still registered and exits as the signal would have (128 +
    /// its number), without the process's exit handlers, since the run's threads are still
    /// going. (Written once, by the lazy initialiser, and never touched again.)
    nonisolated(unsafe) private static let signalSources: [any DispatchSourceSignal] = {
        let queue = DispatchQueue(label: "keycat-bench.signals")
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                stopping.store(true, ordering: .releasing)
                let undos = pending.withLock { pending in
                    defer { pending.removeAll() }
                    return Array(pending.values)
                }
                for undo in undos { undo() }
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }()
}
