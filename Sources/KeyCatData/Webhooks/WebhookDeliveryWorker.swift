import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization

/// The delivery loop (docs/webhooks.md "The delivery loop"): fans events out into deliveries
/// when the event log wakes it, claims due deliveries under a lease, sends them outside any
/// transaction, and records their outcomes in batches.
///
/// Two parts run side by side: the dispatcher (woken by ``EventLog/waitForEvents(past:timeout:)``,
/// never polling) and the loop that records and claims (woken by the dispatcher, by each
/// finished attempt, and by a timer set to the next retry or lease expiry). Sends are child
/// tasks, at most ``WebhookDeliveryOptions/maximumInFlight`` at once and at most
/// ``WebhookDeliveryOptions/concurrencyPerEndpoint`` per endpoint across servers.
package struct WebhookDeliveryWorker<Database: SQLDatabase>: Sendable {
    package let queue: SQLWebhookDeliveryQueue<Database>
    let log: any EventLog
    let sender: any WebhookSender
    let clock: any WallClock
    let options: WebhookDeliveryOptions
    /// This worker's name in `lease_owner`.
    package let owner: String

    /// Events read per fan-out transaction.
    static var fanOutBatch: Int { 500 }

    package init(database: Database, log: any EventLog, sender: any WebhookSender, clock: any WallClock,
                 options: WebhookDeliveryOptions) {
        queue = SQLWebhookDeliveryQueue(database: database)
        self.log = log
        self.sender = sender
        self.clock = clock
        self.options = options
        let host = ProcessInfo.processInfo.hostName
        owner = options.workerName ?? "\(host.isEmpty ? "keycat" : host)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Runs until the calling task is cancelled; then stops claiming, lets the requests in flight
    /// end (a cancelled request hands its delivery back uncounted) and records what finished.
    ///
    /// Each round is one write: the attempts that finished since the last round are recorded and
    /// due deliveries are claimed for the slots they freed, in one transaction.
    package func run(onError: @escaping @Sendable (KeyCatError) -> Void) async {
        let wake = ChangeSignal()
        let finished = Finished()
        var inFlight = 0
        await withDiscardingTaskGroup { group in
            group.addTask { await dispatch(wake: wake, onError: onError) }
            while !Task.isCancelled {
                let generation = wake.generation
                let done = finished.take()
                let free = options.maximumInFlight - inFlight + done.count
                let jobs: [WebhookJob]
                do throws(KeyCatError) {
                    jobs = try await queue.recordAndClaim(
                        done, owner: owner, at: clock.now(), schedule: options.schedule, lease: options.lease, limit: free,
                        perEndpoint: options.concurrencyPerEndpoint).jobs
                } catch {
                    // Kept for the next round; a lease that runs out meanwhile is claimed again.
                    finished.putBack(done)
                    if !Task.isCancelled { onError(error) }
                    await wake.wait(past: generation, timeout: options.idleCheck)
                    continue
                }
                inFlight += jobs.count - done.count
                for job in jobs {
                    group.addTask {
                        let attempt = await send(job)
                        finished.outcomes.withLock { $0.append((job, attempt)) }
                        wake.fire()
                    }
                }
                if !jobs.isEmpty, jobs.count == free { continue }
                // While attempts are in flight each one that ends wakes this loop, so the next
                // due time (a query over every pending delivery) is only asked when none is.
                let timeout = inFlight > 0 ? Swift.min(options.idleCheck, .seconds(1)) : await pauseUntilDue()
                await wake.wait(past: generation, timeout: timeout)
            }
        }
        // Every send has ended; record what the loop had not yet.
        let rest = finished.take()
        if !rest.isEmpty {
            let (queue, owner, clock, schedule) = (queue, owner, clock, options.schedule)
            _ = await Task { try? await queue.record(rest, owner: owner, at: clock.now(), schedule: schedule) }.value
        }
    }

    /// One pass, for tests and one-shot tools: fans out every event, then claims what is due,
    /// sends it and records the outcomes.
    ///
    /// - Returns: the attempts made.
    package func deliverDue() async throws(KeyCatError) -> [WebhookJobOutcome] {
        while try await queue.fanOut(limit: Self.fanOutBatch, at: clock.now()).events == Self.fanOutBatch {}
        let jobs = try await queue.claim(owner: owner, at: clock.now(), lease: options.lease, limit: options.maximumInFlight,
                                         perEndpoint: options.concurrencyPerEndpoint)
        let outcomes = await withTaskGroup(of: WebhookJobOutcome.self) { group in
            for job in jobs { group.addTask { (job, await send(job)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        try await queue.record(outcomes, owner: owner, at: clock.now(), schedule: options.schedule)
        return outcomes.sorted { $0.job.deliveryID < $1.job.deliveryID }
    }

    /// Signs and sends one job.
    package func send(_ job: WebhookJob) async -> WebhookAttempt? {
        let startedAt = clock.now()
        let body = WebhookPayload.body(for: job.event)
        guard body.count <= WebhookPayload.maximumBodyBytes else {
            return WebhookAttempt(startedAt: startedAt, durationMilliseconds: 0, statusCode: nil,
                                  error: "the body is \(body.count) bytes, over the \(WebhookPayload.maximumBodyBytes) sent", responseBody: "")
        }
        let timestamp = Int64(startedAt.timeIntervalSince1970.rounded(.down))
        let signature = job.secrets.map {
            StandardWebhookSignature.sign(id: job.event.id, timestamp: timestamp, body: body, secret: $0.rawValue)
        }.joined(separator: " ")
        let headers = [
            "webhook-id": job.event.id, "webhook-timestamp": String(timestamp), "webhook-signature": signature,
            "content-type": "application/json", "user-agent": Self.userAgent,
        ]
        return await sender.send(WebhookRequest(url: job.url, headers: headers, body: body, timeout: options.requestTimeout,
                                                startedAt: startedAt))
    }

    /// The `user-agent` of every delivery.
    package static var userAgent: String { "KeyCat-Webhooks/1 (+docs/webhooks.md)" }

    /// Fans out whenever the event log may have grown.
    ///
    /// On Postgres an event is readable only once every transaction older than its own has
    /// ended (``SQLEventLog``), so a wake-up may find nothing yet while another transaction
    /// anywhere on the server is still open. While committed events are held back like that the
    /// log is read again after 50 ms, then twice as long each time up to 1.6 s, until they can
    /// be read; otherwise the loop waits for the next wake-up: latency stays low without polling
    /// an idle log.
    private func dispatch(wake: ChangeSignal, onError: @Sendable (KeyCatError) -> Void) async {
        var recheck: Duration?
        while !Task.isCancelled {
            let generation = log.generation
            var held = false
            do throws(KeyCatError) {
                var pass: WebhookFanOut.Pass
                repeat {
                    pass = try await queue.fanOutPass(limit: Self.fanOutBatch, at: clock.now())
                    if pass.deliveries > 0 { wake.fire() }
                } while pass.events == Self.fanOutBatch && !Task.isCancelled
                held = pass.held
            } catch {
                if !Task.isCancelled { onError(error) }
            }
            recheck = held ? Swift.min((recheck ?? .milliseconds(25)) * 2, .milliseconds(1_600)) : nil
            await log.waitForEvents(past: generation, timeout: recheck ?? options.idleCheck)
        }
    }

    /// How long the loop may sleep: until the next delivery comes due, at least 50 ms (a
    /// due delivery held back by the per-endpoint cap waits for an attempt to finish, which
    /// wakes the loop anyway), at most the idle check.
    private func pauseUntilDue() async -> Duration {
        guard let due = try? await queue.nextDue() else { return options.idleCheck }
        let seconds = due.timeIntervalSince(clock.now())
        let floor = 0.05
        let ceiling = options.idleCheck.seconds
        return .milliseconds(Int64(Swift.min(Swift.max(seconds, floor), ceiling) * 1_000))
    }
}

/// Attempts finished and not yet recorded, shared by the sends and the loop.
private final class Finished: Sendable {
    let outcomes = Mutex<[WebhookJobOutcome]>([])

    /// Every outcome, leaving none.
    func take() -> [WebhookJobOutcome] {
        outcomes.withLock { outcomes in
            defer { outcomes = [] }
            return outcomes
        }
    }

    /// Outcomes that could not be recorded, for the next round.
    func putBack(_ batch: [WebhookJobOutcome]) {
        outcomes.withLock { $0.insert(contentsOf: batch, at: 0) }
    }
}
