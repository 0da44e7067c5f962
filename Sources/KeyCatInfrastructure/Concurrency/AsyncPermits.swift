import Synchronization

/// A fixed number of permits that tasks wait for without holding a thread: the turns at a store's
/// connections (its writer, its readers, a Postgres pool).
///
/// A task that finds none free suspends; ``release()`` hands the permit straight to the task
/// that has waited longest, so waiting is first come, first served and nobody barges in. A task
/// cancelled while it waits stops waiting at once and throws `CancellationError`; it never
/// holds a permit afterwards.
package final class AsyncPermits: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var head = 0
        var nextID: UInt64 = 0

        /// Removes and returns the longest-waiting task, if any.
        mutating func popFirst() -> Waiter? {
            guard head < waiters.count else { return nil }
            let waiter = waiters[head]
            head += 1
            if head == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                head = 0
            }
            return waiter
        }

        mutating func remove(_ id: UInt64) -> Waiter? {
            guard let index = waiters[head...].firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }

    private let state: Mutex<State>

    /// `count` permits, at least one.
    package init(_ count: Int) {
        state = Mutex(State(available: max(1, count)))
    }

    /// Takes a permit, waiting (suspended) for one. Pair it with ``release()``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before it got one.
    package func acquire() async throws {
        if tryAcquire() { return }
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool? in
                    // Cancelled before it queued: the handler below found nothing to remove.
                    if Task.isCancelled { return nil }
                    // A permit came back between the fast path and here.
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                switch granted {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            state.withLock { $0.remove(id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a permit back: to the longest-waiting task, or to the pool of free ones.
    package func release() {
        let next = state.withLock { state -> Waiter? in
            if let waiter = state.popFirst() { return waiter }
            state.available += 1
            return nil
        }
        next?.continuation.resume()
    }

    /// The tasks waiting for a permit right now.
    package var waitingCount: Int {
        state.withLock { $0.waiters.count - $0.head }
    }

    /// Takes a permit if one is free right now, without waiting. A free permit means nobody is
    /// waiting (``release()`` hands permits to waiters first), so this never barges in.
    package func tryAcquire() -> Bool {
        state.withLock { state in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
    }

    /// Waits for a permit, then runs `body`, which blocks, on one of `threads`, so it holds one
    /// of the store's threads and never the caller's: how every store call runs its body.
    ///
    /// The hot path is a caller already running on `threads` (a KeyCatAPI handler, a use case
    /// that prefers the store's executor) that finds a permit free: it runs `body` where it is,
    /// with no suspension, no executor-preference record and no job handed between threads.
    @inlinable
    package func withPermit<Result>(on threads: DedicatedThreads, _ body: () throws -> Result) async throws -> Result {
        if threads.isCurrent, tryAcquire() {
            defer { release() }
            return try body()
        }
        return try await withTaskExecutorPreference(threads) {
            try await acquire()
            defer { release() }
            return try body()
        }
    }
}
