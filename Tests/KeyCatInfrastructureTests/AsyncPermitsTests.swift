import Synchronization
import Testing
@testable import KeyCatInfrastructure

/// The turns at a store's connections: waited for suspended, first come first served, and left
/// at once by a cancelled task.
struct AsyncPermitsTests {
    /// Waits (briefly sleeping) until `permits` has `count` tasks queued.
    private func waitUntil(_ permits: AsyncPermits, queues count: Int) async throws {
        while permits.waitingCount < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test("a released permit goes to the task that has waited longest")
    func firstComeFirstServed() async throws {
        let permits = AsyncPermits(1)
        try await permits.acquire()
        let order = Recorder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<4 {
                group.addTask {
                    try await permits.acquire()
                    order.numbers.withLock { $0.append(number) }
                    permits.release()
                }
                // Queue them one at a time, so the order they wait in is known.
                try await waitUntil(permits, queues: number + 1)
            }
            permits.release()
            try await group.waitForAll()
        }
        #expect(order.numbers.withLock { $0 } == [0, 1, 2, 3])
        #expect(permits.waitingCount == 0)
    }

    @Test("a task cancelled while it waits stops at once, and the permit is not lost")
    func cancelledWaiter() async throws {
        let permits = AsyncPermits(1)
        try await permits.acquire()
        let waiter = Task { try await permits.acquire() }
        try await waitUntil(permits, queues: 1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(permits.waitingCount == 0)
        permits.release()
        // The one permit is free again: taking it does not wait.
        try await permits.acquire()
        permits.release()
    }

    @Test("a task already cancelled does not queue")
    func cancelledBeforeWaiting() async throws {
        let permits = AsyncPermits(1)
        try await permits.acquire()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await permits.acquire()
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(permits.waitingCount == 0)
    }

    @Test("a hundred waiting tasks hold no thread: a plain task runs while they wait")
    func waitersHoldNoThread() async throws {
        let permits = AsyncPermits(2)
        try await permits.acquire()
        try await permits.acquire()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await permits.acquire()
                    permits.release()
                }
            }
            try await waitUntil(permits, queues: 100)
            // More waiters than the cooperative pool has threads: if a wait held one, this could
            // not run until they were served.
            let ran = await Task { true }.value
            #expect(ran)
            permits.release()
            permits.release()
            try await group.waitForAll()
        }
        #expect(permits.waitingCount == 0)
    }
}

/// The order in which tasks got their permits.
private final class Recorder: Sendable {
    let numbers = Mutex<[Int]>([])
}
