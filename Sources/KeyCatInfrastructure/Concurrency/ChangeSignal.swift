import Synchronization

/// A generation number that grows when something others wait for has happened (a committed
/// event, another process's commit), and the tasks waiting for it to grow: the wake-up of a
/// reader that would otherwise poll.
///
/// A waiter reads ``generation`` *before* looking at what it waits for (a table), and then waits
/// past that number; a change between the two has already moved it, so nothing is missed. Waiting
/// holds no thread, ends early when the task is cancelled, and ends anyway after its timeout, so
/// a wake-up that never comes (a lost notification) only delays the next look.
package final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
        /// The waits in progress, and those of them whose timeout or cancellation came before
        /// they queued.
        var active: Set<UInt64> = []
        var ended: Set<UInt64> = []
    }

    private let state = Mutex(State())

    package init() {}

    /// The current generation.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Moves the generation on and wakes every waiter.
    package func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll(keepingCapacity: true) }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the generation is past `generation`, the task is cancelled, or `timeout` has
    /// passed, whichever comes first.
    package func wait(past generation: UInt64, timeout: Duration) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            state.active.insert(state.nextID)
            return state.nextID
        }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.resume(id)
        }
        defer {
            timer.cancel()
            state.withLock { state in
                state.active.remove(id)
                state.ended.remove(id)
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    let ended = state.ended.remove(id) != nil
                    guard state.generation == generation, !ended, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if state.active.contains(id) { state.ended.insert(id) }
                return nil
            }
            return waiter
        }
        waiter?.resume()
    }
}
