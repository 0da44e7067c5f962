import Dispatch
import KeyCat

/// Runs work that burns CPU (PBKDF2 password hashing, ~150 ms) on Dispatch's global queue
/// instead of a thread of Swift's cooperative pool, so other requests' tasks keep running
/// meanwhile. The storage calls inside still wait on the store's own threads.
func offloaded<Value: Sendable>(_ work: () async throws(KeyCatError) -> Value) async throws(KeyCatError) -> Value {
    try await withTaskExecutorPreference(GlobalQueueExecutor.shared, operation: work)
}

/// Dispatch's global queue as a `TaskExecutor`: each job runs on one of its threads.
private final class GlobalQueueExecutor: TaskExecutor {
    static let shared = GlobalQueueExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global(qos: .userInitiated).async { job.runSynchronously(on: executor) }
    }
}
