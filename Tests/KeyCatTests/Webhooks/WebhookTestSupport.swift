import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing

/// A ``WebhookSender`` that receives in process: it keeps every request, answers with the status
/// `answer` picks for it and the body `body` picks, and never touches the network.
final class RecordingSender: WebhookSender {
    private let received = Mutex<[WebhookRequest]>([])
    private let answer: @Sendable (WebhookRequest) -> Int
    private let body: @Sendable (WebhookRequest) -> String

    init(answer: @escaping @Sendable (WebhookRequest) -> Int = { _ in 200 },
         body: @escaping @Sendable (WebhookRequest) -> String = { _ in "ok" }) {
        self.answer = answer
        self.body = body
    }

    func send(_ request: WebhookRequest) async -> WebhookAttempt? {
        received.withLock { $0.append(request) }
        let status = answer(request)
        return WebhookAttempt(startedAt: request.startedAt, durationMilliseconds: 1, statusCode: status,
                              error: (200..<300).contains(status) ? nil : "HTTP \(status)", responseBody: body(request))
    }

    var requests: [WebhookRequest] { received.withLock { $0 } }

    /// The `webhook-id` of every request, in the order they came.
    var eventIDs: [String] { requests.map { $0.headers["webhook-id"] ?? "" } }
}

extension WebhookRequest {
    /// Whether `webhook-signature` holds a `v1,` signature of this request made with `secret`,
    /// checked as a receiver does.
    func isSigned(with secret: WebhookSecret) -> Bool {
        guard let id = headers["webhook-id"], let timestamp = headers["webhook-timestamp"].flatMap(Int64.init),
              let signatures = headers["webhook-signature"] else { return false }
        let expected = StandardWebhookSignature.sign(id: id, timestamp: timestamp, body: body, secret: secret.rawValue)
        return signatures.split(separator: " ").contains { String($0) == expected }
    }
}

extension TestShop {
    /// Writes `events` to the log as a repository does, in one transaction.
    ///
    /// Returns once the log shows them: on Postgres an event is readable only after every
    /// older transaction on the server has ended, and other suites' transactions run beside
    /// this one.
    func append(_ events: [DomainEvent], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await keycat.appendForTest(events, sourceLocation: sourceLocation)
    }

    /// An event of `type` about `aggregate`, occurring now by the shop's clock.
    func event(_ type: EventType, _ aggregate: EventAggregate, _ data: EventData = ["amount": 39_000]) -> DomainEvent {
        DomainEvent(type, at: clock.now(), aggregate: aggregate, data: data)
    }

    /// Delivery options that send through `sender`.
    func deliveryOptions(_ sender: any WebhookSender) -> WebhookDeliveryOptions {
        var options = WebhookDeliveryOptions()
        options.sender = sender
        return options
    }

    /// Registers an endpoint for `events` with a generated secret.
    func endpoint(_ events: String = "*", url: String = "https://hooks.example.com/keycat") async throws -> WebhookEndpointService.WithSecret {
        try await keycat.webhookEndpoints.add(url: url, events: events, by: operatorConsole)
    }

    /// The deliveries, oldest first.
    func deliveries(endpoint: Int64? = nil) async throws -> [WebhookDelivery] {
        try await keycat.webhookEndpoints.deliveries(WebhookDeliveryFilter(endpointID: endpoint, limit: 1_000), by: operatorConsole).reversed()
    }
}

extension KeyCat {
    /// Writes `events` as a repository does, and returns once the log shows them (see
    /// ``TestShop/append(_:sourceLocation:)``).
    func appendForTest(_ events: [DomainEvent], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let keycat = self
        try await Self.append(events, on: store.database)
        let ids = Set(events.map(\.id))
        // A transaction anywhere on the Postgres server holds every newer event back until it
        // ends, and the whole suite runs beside this test: the guard is generous.
        try await waitUntil(limit: .seconds(600), sourceLocation: sourceLocation) {
            let generation = keycat.eventLog.generation
            var seen = Set<String>()
            var position = EventPosition.start
            while true {
                let page = try await keycat.eventLog.events(after: position, limit: 1_000)
                seen.formUnion(page.map(\.id))
                guard page.count == 1_000, let last = page.last?.position else { break }
                position = last
            }
            if ids.isSubset(of: seen) { return true }
            await keycat.eventLog.waitForEvents(past: generation, timeout: .milliseconds(50))
            return false
        }
    }

    private static func append(_ events: [DomainEvent], on database: some SQLDatabase) async throws {
        try await database.write { try EventOutbox.append(events, on: $0) }
    }
}

/// Waits until `condition` holds, checking after each short pause; fails the test at the
/// caller's line after `limit` (a hang guard, not a measure: generous, since the whole suite
/// runs beside it on two cores, and a condition that never holds fails the same after any
/// limit). The failure names what holds Postgres's event horizon then
/// (``PostgresHorizon/report()``): a transaction anywhere on the server that outlasts the limit
/// holds back every event log and webhook fan-out reading the server.
func waitUntil(limit: Duration = .seconds(300), sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition never held in \(limit); \(await PostgresHorizon.report())", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// What holds the event horizon of the test server's Postgres, for a failure's message.
enum PostgresHorizon {
    /// The oldest transactions on the server that hold a transaction id, with their sessions'
    /// ages and last statements; on SQLite runs, that there is no server to ask. Asked on a
    /// thread of its own, as libpq blocks.
    static func report() async -> String {
        guard let url = PostgresTestServer.url else { return "no Postgres server is configured" }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: ask(url)) }
        }
    }

    private static func ask(_ url: String) -> String {
        do {
            let connection = try PostgresConnection(url: url)
            defer { connection.close() }
            let holders = try connection.query("""
                SELECT pid, application_name, state, CAST(round(extract(epoch FROM now() - xact_start)) AS bigint),
                       left(regexp_replace(query, '\\s+', ' ', 'g'), 120)
                FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()
                ORDER BY xact_start LIMIT 3
                """, []) { row in
                "pid \(row.int64(0)) (\(row.string(1)), \(row.string(2)), for \(row.int64(3)) s): \(row.string(4))"
            }
            return holders.isEmpty ? "no transaction on the Postgres server holds an id"
                : "the oldest transactions holding an id on the Postgres server: " + holders.joined(separator: "; ")
        } catch {
            return "the Postgres server could not be asked what holds it: \(error)"
        }
    }
}
