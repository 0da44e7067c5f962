import Foundation

/// The log of events the repositories write with their changes (the transactional outbox):
/// read in order, waited on without polling, pruned after a while.
public protocol EventLog: Sendable {
    /// Events after `position` in log order, at most `limit` (1–1,000) of them.
    func events(after position: EventPosition, limit: Int) async throws(KeyCatError) -> [DomainEvent]

    /// ``events(after:limit:)``, and whether more have committed after them that cannot be read
    /// yet: on Postgres an event is readable once every transaction older than its own has
    /// ended, so one that commits while an older transaction is still running waits for it (a
    /// reader then looks again shortly, as no commit will wake it). Always false on SQLite.
    func page(after position: EventPosition, limit: Int) async throws(KeyCatError) -> EventPage

    /// The event with `id`, nil when there is none (or it was pruned).
    func event(id: String) async throws(KeyCatError) -> DomainEvent?

    /// The generation ``waitForEvents(past:timeout:)`` waits past: read it *before* reading the
    /// log, then wait past it when the read found nothing new. The first read starts watching
    /// other processes and servers.
    var generation: UInt64 { get }

    /// Returns once an event may have been committed since `generation` was read — by this
    /// process, another process on the same SQLite file, or another server on the same Postgres
    /// database — or `timeout` passed, or the task was cancelled. It may return with nothing new
    /// (a reader then reads and waits again); it never returns late for this process's own
    /// commits.
    func waitForEvents(past generation: UInt64, timeout: Duration) async

    /// Deletes events that occurred before `date` (and what refers to them).
    ///
    /// - Returns: how many events were deleted.
    func prune(before date: Date) async throws(KeyCatError) -> Int
}

/// A read of the log: its events, and whether more are committed but not yet readable
/// (``EventLog/page(after:limit:)``).
public struct EventPage: Sendable, Hashable {
    public var events: [DomainEvent]
    public var isBehind: Bool

    public init(events: [DomainEvent], isBehind: Bool) {
        self.events = events
        self.isBehind = isBehind
    }
}

/// Events after a position, as an `AsyncSequence` that never ends by itself: it reads the log in
/// batches and, when it has caught up, waits for the next commit (``EventLog/waitForEvents(past:timeout:)``)
/// instead of polling. Delivery is at least once: a subscriber stores each event's
/// ``DomainEvent/position`` after handling it and resumes from the stored one, so an event is
/// handled again only when the subscriber stopped between handling it and storing its position.
/// Cancelling the task that iterates ends the sequence.
public struct EventStream: AsyncSequence, Sendable {
    public typealias Element = DomainEvent
    public typealias Failure = KeyCatError

    let log: any EventLog
    let position: EventPosition
    let batchSize: Int
    /// The longest wait for a wake-up before reading the log again anyway: a safety net for a
    /// notification lost with its connection, never the way events normally arrive.
    let idleCheck: Duration

    public init(log: any EventLog, after position: EventPosition, batchSize: Int = 100, idleCheck: Duration = .seconds(5)) {
        self.log = log
        self.position = position
        self.batchSize = Swift.min(Swift.max(batchSize, 1), 1_000)
        self.idleCheck = idleCheck
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self, position: position)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let stream: EventStream
        var position: EventPosition
        var buffered: [DomainEvent] = []

        /// The next event, waiting for one as long as it takes; nil once the task is cancelled.
        ///
        /// - Throws: the store's error when reading the log fails.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(KeyCatError) -> DomainEvent? {
            var behind = Duration.milliseconds(2)
            while buffered.isEmpty {
                if Task.isCancelled { return nil }
                let generation = stream.log.generation
                let page = try await stream.log.page(after: position, limit: stream.batchSize)
                buffered = page.events
                guard buffered.isEmpty else { break }
                if page.isBehind {
                    // Committed behind an older transaction: readable as soon as it ends, which
                    // no commit announces. Look again soon, less often the longer it takes.
                    try? await Task.sleep(for: behind)
                    behind = Swift.min(behind * 2, .milliseconds(100))
                } else {
                    await stream.log.waitForEvents(past: generation, timeout: stream.idleCheck)
                }
            }
            let event = buffered.removeFirst()
            if let next = event.position { position = next }
            return event
        }

        public mutating func next() async throws(KeyCatError) -> DomainEvent? {
            try await next(isolation: nil)
        }
    }
}
