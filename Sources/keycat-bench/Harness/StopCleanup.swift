import Dispatch
import Foundation
import Synchronization

/// What the bench undoes when it is stopped with Ctrl-C or `kill` (`SIGINT`, `SIGTERM`), which
/// otherwise end the process before any `defer` runs: its Postgres schemas (``BenchSchema``) and
/// its temporary directory, whose SQLite file holds a million products. `kill -9` cannot be
/// caught: what it leaves is named `keycat_bench_…`, for an operator to remove.
enum StopCleanup {
    /// What to undo, by token, until the run undoes it itself.
    private static let pending = Mutex<[UUID: @Sendable () -> Void]>([:])

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
