import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Several servers, one delivery (docs/webhooks.md "Leases"): two KeyCat instances with their
/// own connections on one database, as two servers on one Postgres schema (or two processes on
/// one SQLite file) would be.
@Suite("Webhook leases across servers")
struct WebhookLeaseTests {
    /// Two instances of one fresh store sharing one clock.
    private func twoServers(_ store: TestStore, _ body: (KeyCat, KeyCat, TestClock) async throws -> Void) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            let clock = TestClock()
            let first = try await TestShop.open(configuration, clock: clock)
            defer { first.close() }
            let second = try await TestShop.open(configuration, clock: clock)
            defer { second.close() }
            try await body(first, second, clock)
        }
    }

    private let admin = Principal.operatorConsole("tester")

    @Test("two servers running the delivery loop send every event to every endpoint once, one attempt each",
          arguments: TestStore.allCases)
    func eachAttemptOnce(_ store: TestStore) async throws {
        try await twoServers(store) { first, second, clock in
            for index in 1...3 {
                _ = try await first.webhookEndpoints.add(url: "https://hooks\(index).example.com/", events: "*", by: admin)
            }
            let receiver = RecordingSender()
            var options = WebhookDeliveryOptions()
            options.sender = receiver
            options.concurrencyPerEndpoint = 2
            let loopOptions = options
            let loops = [first, second].map { keycat in Task { try await keycat.deliverWebhooks(loopOptions) } }
            defer { loops.forEach { $0.cancel() } }
            // Orders 1…10 each get three events, written from both servers in turn.
            var events: [DomainEvent] = []
            for round in 0..<3 {
                let batch = (1...10).map { order in
                    DomainEvent([EventType.orderCreated, .orderPaid, .shipmentShipped][round], at: clock.now(),
                                aggregate: EventAggregate(.order, Int64(order)), data: ["round": .integer(Int64(round))])
                }
                try await (round.isMultiple(of: 2) ? first : second).appendForTest(batch)
                events += batch
            }
            try await waitUntil { receiver.requests.count >= 90 }
            try await waitUntil {
                try await first.webhookEndpoints.deliveries(WebhookDeliveryFilter(limit: 1_000), by: admin)
                    .allSatisfy { $0.status == .delivered }
            }
            loops.forEach { $0.cancel() }
            for loop in loops { try await loop.value }

            var perEndpointAndEvent: [String: Int] = [:]
            for request in receiver.requests {
                perEndpointAndEvent["\(request.url.host) \(request.headers["webhook-id"] ?? "")", default: 0] += 1
            }
            #expect(perEndpointAndEvent.count == 90)
            #expect(perEndpointAndEvent.values.allSatisfy { $0 == 1 })
            let deliveries = try await second.webhookEndpoints.deliveries(WebhookDeliveryFilter(limit: 1_000), by: admin)
            #expect(deliveries.count == 90)
            #expect(deliveries.allSatisfy { $0.attempts == 1 })
            // Each endpoint got each order's events in the order they occurred.
            for host in ["hooks1.example.com", "hooks2.example.com", "hooks3.example.com"] {
                for order in 1...10 {
                    let ids = events.filter { $0.aggregate.id == Int64(order) }.map(\.id)
                    let received = receiver.requests.filter { $0.url.host == host }.map { $0.headers["webhook-id"] ?? "" }
                        .filter { ids.contains($0) }
                    #expect(received == ids, "\(host) order \(order)")
                }
            }
        }
    }

    @Test("a lease left by a server that died expires and another server delivers; the dead one's late outcome changes nothing",
          arguments: TestStore.allCases)
    func expiredLeaseIsTakenOver(_ store: TestStore) async throws {
        try await twoServers(store) { first, second, clock in
            _ = try await first.webhookEndpoints.add(url: "https://hooks.example.com/", events: "*", by: admin)
            let event = DomainEvent(.orderPaid, at: clock.now(), aggregate: EventAggregate(.order, 1), data: [:])
            try await first.appendForTest([event])
            let receiver = RecordingSender()
            var options = WebhookDeliveryOptions()
            options.sender = receiver

            // The first server claims the delivery, then dies before sending.
            let dead = try await first.withWebhookQueue { queue in
                _ = try await queue.fanOut(limit: 100, at: clock.now())
                return try await queue.claim(owner: "dead-server", at: clock.now(), lease: 60, limit: 10, perEndpoint: 4)
            }
            #expect(dead.count == 1)
            #expect(try await second.deliverDueWebhooks(options).isEmpty)  // still leased
            clock.advance(by: 59)
            #expect(try await second.deliverDueWebhooks(options).isEmpty)
            clock.advance(by: 2)
            let taken = try await second.deliverDueWebhooks(options)
            #expect(taken.map(\.job.attempt) == [2])
            #expect(receiver.eventIDs == [event.id])

            // The first server comes back and reports a failure for its old lease: ignored.
            _ = try await first.withWebhookQueue { queue in
                try await queue.record(
                    [(dead[0], WebhookAttempt(startedAt: clock.now(), durationMilliseconds: 10_000, statusCode: nil, error: "timed out",
                                              responseBody: ""))],
                    owner: "dead-server", at: clock.now(), schedule: .standard)
            }
            let delivery = try #require(try await first.webhookEndpoints.deliveries(by: admin).first)
            #expect(delivery.status == .delivered)
            #expect(delivery.attempts == 2)
            #expect(delivery.lastAttempt?.statusCode == 200)
        }
    }
}

extension WebhookLeaseTests {
    @Test("an endpoint past the first ones the in-flight limit would fill is asked too: idle endpoints take no slots",
          arguments: TestStore.allCases)
    func laterEndpointsAreAsked(_ store: TestStore) async throws {
        try await twoServers(store) { first, _, clock in
            // Two idle endpoints fill the claim's 8 slots at 4 each; the third has a delivery due.
            for name in ["one", "two"] {
                _ = try await first.webhookEndpoints.add(url: "https://\(name).example.com/", events: "order.paid", by: admin)
            }
            _ = try await first.webhookEndpoints.add(url: "https://three.example.com/", events: "review.created", by: admin)
            let event = DomainEvent(.reviewCreated, at: clock.now(), aggregate: EventAggregate(.review, 1), data: [:])
            try await first.appendForTest([event])
            let jobs = try await first.withWebhookQueue { queue in
                _ = try await queue.fanOut(limit: 100, at: clock.now())
                return try await queue.claim(owner: "server", at: clock.now(), lease: 60, limit: 8, perEndpoint: 4)
            }
            #expect(jobs.map(\.url.host) == ["three.example.com"], "\(jobs)")
        }
    }

    @Test("due deliveries are taken a round at a time across endpoints, from a rotating first one")
    func takenInTurn() {
        let lists: [[Int64]] = [[1, 2, 3], [], [10, 11], [20]]
        #expect(SQLWebhookDeliveryQueue<SQLiteDatabase>.takeInTurn(lists, limit: 5, startingAt: 0) == [1, 10, 20, 2, 11])
        #expect(SQLWebhookDeliveryQueue<SQLiteDatabase>.takeInTurn(lists, limit: 4, startingAt: 2) == [10, 20, 1, 11])
        #expect(SQLWebhookDeliveryQueue<SQLiteDatabase>.takeInTurn(lists, limit: 10, startingAt: 3) == [20, 1, 10, 2, 11, 3])
    }

    @Test("an attempt cut short by shutdown hands its delivery back uncounted and unleased", arguments: TestStore.allCases)
    func interruptedAttemptIsHandedBack(_ store: TestStore) async throws {
        try await twoServers(store) { first, second, clock in
            _ = try await first.webhookEndpoints.add(url: "https://hooks.example.com/", events: "*", by: admin)
            try await first.appendForTest([DomainEvent(.orderPaid, at: clock.now(), aggregate: EventAggregate(.order, 1), data: [:])])
            try await first.withWebhookQueue { queue in
                _ = try await queue.fanOut(limit: 100, at: clock.now())
                let jobs = try await queue.claim(owner: "stopping", at: clock.now(), lease: 60, limit: 10, perEndpoint: 4)
                #expect(jobs.map(\.attempt) == [1])
                _ = try await queue.record([(jobs[0], nil)], owner: "stopping", at: clock.now(), schedule: .standard)
            }
            var options = WebhookDeliveryOptions()
            options.sender = RecordingSender()
            let resumed = try await second.deliverDueWebhooks(options)
            #expect(resumed.map(\.job.attempt) == [1])  // at once, no lease to wait out, the attempt not counted twice
        }
    }
}

extension KeyCat {
    /// Runs `body` with this instance's delivery queue.
    func withWebhookQueue<Result: Sendable>(_ body: (any WebhookQueueProbe) async throws -> Result) async throws -> Result {
        try await Self.withQueue(on: store.database, body)
    }

    private static func withQueue<Result: Sendable>(on database: some SQLDatabase,
                                                    _ body: (any WebhookQueueProbe) async throws -> Result) async throws -> Result {
        try await body(SQLWebhookDeliveryQueue(database: database))
    }
}
