import Foundation

/// Threads of KeyCat's own, as a `TaskExecutor`, for work that must not hold a thread of Swift's
/// global executor: storage calls that wait for a database, and password hashing, which burns
/// about 150 ms of CPU a call.
///
/// SQLite and libpq calls block the thread that makes them until the database answers. Run on
/// Swift's cooperative pool — one thread per core, shared by every task of the process — a few
/// such calls stall everything else: with Postgres 1 ms away, two cores meant two orders in
/// flight and a server's unrelated routes waiting behind them. A task that prefers this executor
/// (`withTaskExecutorPreference`) runs its synchronous stretches here instead, one per thread,
/// so as many storage calls wait at once as there are threads — sized to the connections the
/// store can lend — and the cooperative pool stays free for everything else.
///
/// Dispatch's global queues are no substitute on Linux: Swift's global executor runs its jobs on
/// those same queues' threads, so a block sent to `DispatchQueue.global()` holds a thread the
/// server's tasks need, and Dispatch adds one more only about a second later.
///
/// Jobs run in the order they were enqueued. Threads start when work first needs them, up to
/// `count` (a database that is opened and never queried starts none). After ``shutdown()`` the
/// threads finish the jobs already queued and exit; a job enqueued later gets a thread of its
/// own, so no task is ever stranded.
package final class DedicatedThreads: TaskExecutor, @unchecked Sendable {
    // Every `var` is guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false
    /// Threads started so far; of them, those waiting for a job, and the wake-ups sent to them
    /// that have not landed yet (a thread signalled for one job must not be counted for the next).
    private var started = 0
    private var waiting = 0
    private var wakeUpsInFlight = 0
    private let limit: Int
    private let name: String

    /// Up to `count` threads named `name-0`, `name-1`, … (Linux keeps 15 bytes of a name).
    package init(count: Int, name: String = "keycat-db") {
        limit = max(1, count)
        self.name = name
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !stopped else {
            condition.unlock()
            // A straggler after close (a task still preferring this executor): a thread of its
            // own, run as this executor, so the preference is met and the job never bounces
            // between executors. Its storage call then fails as a closed KeyCat's do.
            Thread.detachNewThread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
            return
        }
        jobs.append(job)
        if waiting > wakeUpsInFlight {
            wakeUpsInFlight += 1
            condition.signal()
        } else if started < limit {
            let threadName = "\(name)-\(started)"
            let thread = Thread { [self] in work(named: threadName) }
            started += 1
            condition.unlock()
            // Storage bodies and PBKDF2 use little stack: the default 512 KiB is plenty.
            thread.start()
            return
        }
        condition.unlock()
    }

    /// Lets the queued jobs finish, then ends the threads. Idempotent.
    package func shutdown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the calling thread is one of these: a store call made here can run its body in
    /// place (see ``AsyncPermits/withPermit(on:_:)``). A thread-specific value, so it costs a load.
    package var isCurrent: Bool {
        pthread_getspecific(dedicatedThreadsKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    private func work(named threadName: String) {
        Thread.nameCurrent(threadName)
        pthread_setspecific(dedicatedThreadsKey, Unmanaged.passUnretained(self).toOpaque())
        while let job = next() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The oldest queued job, waiting for one; nil once shut down with nothing left.
    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if stopped { return nil }
            waiting += 1
            condition.wait()
            waiting -= 1
            wakeUpsInFlight = max(0, wakeUpsInFlight - 1)
        }
        let job = jobs[head]
        head += 1
        // Drop what was consumed when the queue empties, or now and then under steady load, so
        // the array does not grow without bound.
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}

/// The thread-specific slot in which each dedicated thread keeps the ``DedicatedThreads`` it belongs to.
private let dedicatedThreadsKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread-specific keys")
    return key
}()
