import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatTestSupport
import Testing

/// Fan-out, signing, the body, retries, ordering and pruning, on both stores, with an in-process
/// receiver (the real HTTP path is scripts/test's webhook stage).
@Suite("Webhook delivery")
struct WebhookDeliveryTests {
    @Test("an endpoint gets each event it selects that occurred after it was added, once, signed, with the documented body",
          arguments: TestStore.allCases)
    func fansOutOnce(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 1))])  // before the endpoint
            shop.clock.advance(by: 1)
            let orders = try await shop.endpoint("order.*")
            let paid = shop.event(.orderPaid, EventAggregate(.order, 7), ["amount": 39_000, "merchant_uid": "kc_7"])
            try await shop.append([paid, shop.event(.productCreated, EventAggregate(.product, 3))])
            let receiver = RecordingSender()
            let outcomes = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver))
            #expect(outcomes.count == 1)
            #expect(try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver)).isEmpty)

            let request = try #require(receiver.requests.first)
            #expect(receiver.requests.count == 1)
            #expect(request.url == orders.endpoint.url)
            #expect(request.headers["webhook-id"] == paid.id)
            #expect(request.headers["webhook-timestamp"] == String(Int64(shop.clock.now().timeIntervalSince1970)))
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["user-agent"]?.hasPrefix("KeyCat-Webhooks/") == true)
            #expect(request.isSigned(with: orders.secret))
            #expect(request.headers["webhook-signature"]?.split(separator: " ").count == 1)
            let expected = #"{"id":"\#(paid.id)","type":"order.paid","occurred_at":"2026-01-01T00:00:01Z","#
                + #""aggregate":{"kind":"order","id":7},"schema_version":1,"data":{"amount":39000,"merchant_uid":"kc_7"}}"#
            #expect(String(decoding: request.body, as: UTF8.self) == expected)

            let delivery = try #require(try await shop.deliveries().first)
            #expect(delivery.status == .delivered)
            #expect(delivery.attempts == 1)
            #expect(delivery.lastAttempt?.statusCode == 200)
            // The events were written by hand about entities the test never made (db check says
            // so); what must hold here is everything else, the webhook tables' rules included.
            #expect(try await shop.keycat.checkHealth().invariantProblems.filter { !$0.contains("does not exist") }.isEmpty)
        }
    }

    @Test("an answer holding NUL (a UTF-16 or binary body) is kept with U+FFFD, and every endpoint's outcome is recorded with it",
          arguments: TestStore.allCases)
    func answerHoldingNul(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let utf16 = try await shop.endpoint("order.*", url: "https://utf16.example.com/hook")
            let plain = try await shop.endpoint("order.*", url: "https://plain.example.com/hook")
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 1))])
            let receiver = RecordingSender(answer: { $0.url.host == "utf16.example.com" ? 500 : 200 },
                                           body: { $0.url.host == "utf16.example.com" ? "{\u{0}\"\u{0}o\u{0}k" : "ok" })
            #expect(try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver)).count == 2)
            let failed = try #require(try await shop.deliveries(endpoint: utf16.endpoint.id).first)
            #expect(failed.status == .pending && failed.lastAttempt?.responseBody == "{\u{FFFD}\"\u{FFFD}o\u{FFFD}k")
            #expect(try await shop.deliveries(endpoint: plain.endpoint.id).first?.status == .delivered)
            // Nothing is left to send again a lease later: the plain endpoint got the event once.
            shop.clock.advance(by: 61)
            _ = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver))
            #expect(receiver.requests.filter { $0.url.host == "plain.example.com" }.count == 1)
        }
    }

    @Test("a failure is retried 5 s later and then by the schedule; after the last the delivery fails and the silent endpoint is disabled, audited",
          arguments: TestStore.allCases)
    func retriesThenDisables(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let endpoint = try await shop.endpoint()
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 1))])
            let down = RecordingSender { _ in 503 }
            let options = shop.deliveryOptions(down)
            #expect(try await shop.keycat.deliverDueWebhooks(options).count == 1)
            var delivery = try #require(try await shop.deliveries().first)
            #expect(delivery.status == .pending)
            #expect(delivery.lastAttempt?.statusCode == 503)
            #expect(delivery.nextAttemptAt == StoredTimeProbe.stored(shop.clock.now().addingTimeInterval(5)))

            shop.clock.advance(by: 4)
            #expect(try await shop.keycat.deliverDueWebhooks(options).isEmpty)  // not due yet
            for delay in WebhookRetrySchedule.standard.delays {
                shop.clock.advance(by: delay)
                #expect(try await shop.keycat.deliverDueWebhooks(options).count == 1)
            }
            delivery = try #require(try await shop.deliveries().first)
            #expect(delivery.status == .failed)
            #expect(delivery.attempts == 10)
            #expect(delivery.nextAttemptAt == nil)
            #expect(down.requests.count == 10)
            let disabled = try await shop.keycat.webhookEndpoints.endpoint(endpoint.endpoint.id, by: shop.operatorConsole)
            #expect(!disabled.isEnabled)
            #expect(disabled.disabledReason?.contains("every delivery failed") == true)
            let audit = try await shop.keycat.auditLog.recent(limit: 5)
            #expect(audit.contains { $0.action == "webhook.endpoint.auto_disable" && $0.actor == "system" })

            // Disabled: new events are not queued for it.
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 2))])
            #expect(try await shop.keycat.deliverDueWebhooks(options).isEmpty)
            #expect(try await shop.deliveries().count == 1)
        }
    }

    @Test("an endpoint that answered 2xx after a delivery was created stays enabled when that delivery gives up",
          arguments: TestStore.allCases)
    func successKeepsEndpoint(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let endpoint = try await shop.endpoint()
            let poisoned = shop.event(.orderPaid, EventAggregate(.order, 1))
            try await shop.append([poisoned])
            let picky = RecordingSender { $0.headers["webhook-id"] == poisoned.id ? 400 : 204 }
            let options = shop.deliveryOptions(picky)
            _ = try await shop.keycat.deliverDueWebhooks(options)
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 2))])
            _ = try await shop.keycat.deliverDueWebhooks(options)
            for delay in WebhookRetrySchedule.standard.delays {
                shop.clock.advance(by: delay)
                _ = try await shop.keycat.deliverDueWebhooks(options)
            }
            #expect(try await shop.deliveries().map(\.status) == [.failed, .delivered])
            #expect(try await shop.keycat.webhookEndpoints.endpoint(endpoint.endpoint.id, by: shop.operatorConsole).isEnabled)
        }
    }

    @Test("per endpoint, an aggregate's events go in order: a later one waits while an earlier one is pending; other aggregates go on",
          arguments: TestStore.allCases)
    func ordersPerAggregate(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await shop.endpoint()
            let created = shop.event(.orderCreated, EventAggregate(.order, 1))
            let paid = shop.event(.orderPaid, EventAggregate(.order, 1))
            let other = shop.event(.orderPaid, EventAggregate(.order, 2))
            try await shop.append([created, paid, other])
            let flaky = RecordingSender { $0.headers["webhook-id"] == created.id && $0.headers["webhook-timestamp"] == "1767225600" ? 500 : 200 }
            let options = shop.deliveryOptions(flaky)
            _ = try await shop.keycat.deliverDueWebhooks(options)
            #expect(flaky.eventIDs == [created.id, other.id])  // paid waits behind created
            #expect(try await shop.keycat.deliverDueWebhooks(options).isEmpty)
            shop.clock.advance(by: 5)
            _ = try await shop.keycat.deliverDueWebhooks(options)
            _ = try await shop.keycat.deliverDueWebhooks(options)
            #expect(flaky.eventIDs == [created.id, other.id, created.id, paid.id])
        }
    }

    @Test("at most the per-endpoint cap is in flight at once, across claims", arguments: TestStore.allCases)
    func capsConcurrency(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await shop.endpoint()
            try await shop.append((1...10).map { shop.event(.orderPaid, EventAggregate(.order, Int64($0))) })
            try await shop.withQueue { queue in
                _ = try await queue.fanOut(limit: 100, at: shop.clock.now())
                let first = try await queue.claim(owner: "a", at: shop.clock.now(), lease: 60, limit: 64, perEndpoint: 4)
                let second = try await queue.claim(owner: "b", at: shop.clock.now(), lease: 60, limit: 64, perEndpoint: 4)
                #expect(first.count == 4)
                #expect(second.isEmpty)
            }
        }
    }

    @Test("one endpoint's backlog never hides another endpoint's due delivery", arguments: TestStore.allCases)
    func claimsFairly(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let busy = try await shop.endpoint("order.*", url: "https://busy.example.com/")
            let quiet = try await shop.endpoint("product.*", url: "https://quiet.example.com/")
            try await shop.append((1...30).map { shop.event(.orderPaid, EventAggregate(.order, Int64($0))) })
            try await shop.append([shop.event(.productCreated, EventAggregate(.product, 1))])
            try await shop.withQueue { queue in
                _ = try await queue.fanOut(limit: 100, at: shop.clock.now())
                let jobs = try await queue.claim(owner: "a", at: shop.clock.now(), lease: 60, limit: 5, perEndpoint: 4)
                #expect(jobs.filter { $0.endpointID == busy.endpoint.id }.count == 4)
                #expect(jobs.filter { $0.endpointID == quiet.endpoint.id }.count == 1)
            }
        }
    }

    @Test("after a rotation both secrets sign for 24 hours, then only the new one", arguments: TestStore.allCases)
    func rotationOverlap(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let old = try await shop.endpoint()
            let new = try await shop.keycat.webhookEndpoints.rotateSecret(old.endpoint.id, by: shop.operatorConsole)
            let receiver = RecordingSender()
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 1))])
            _ = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver))
            let during = try #require(receiver.requests.last)
            #expect(during.headers["webhook-signature"]?.split(separator: " ").count == 2)
            #expect(during.isSigned(with: old.secret) && during.isSigned(with: new.secret))

            shop.clock.advance(by: 86_401)
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 2))])
            _ = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver))
            let after = try #require(receiver.requests.last)
            #expect(after.isSigned(with: new.secret) && !after.isSigned(with: old.secret))
        }
    }

    @Test("replay sends an event again under the same webhook-id; an unknown event is not found", arguments: TestStore.allCases)
    func replays(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let endpoint = try await shop.endpoint("order.paid")
            let paid = shop.event(.orderPaid, EventAggregate(.order, 1))
            try await shop.append([paid, shop.event(.productCreated, EventAggregate(.product, 1))])
            let receiver = RecordingSender()
            _ = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver))
            let service = shop.keycat.webhookEndpoints
            #expect(try await service.replay(.event(id: paid.id), by: shop.operatorConsole) == 1)
            #expect(try await service.replay(.since(shop.clock.now().addingTimeInterval(-60)), endpoint: endpoint.endpoint.id,
                                             by: shop.operatorConsole) == 1)
            // Both replays are of one aggregate for one endpoint: the second waits for the first.
            #expect(try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver)).count == 1)
            #expect(try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(receiver)).count == 1)
            #expect(receiver.eventIDs == [paid.id, paid.id, paid.id])
            let missing = await #expect(throws: KeyCatError.self) {
                _ = try await service.replay(.event(id: "evt_missing"), by: shop.operatorConsole)
            }
            #expect(missing?.code == .notFound)
            let future = await #expect(throws: KeyCatError.self) {
                _ = try await service.replay(.since(shop.clock.now().addingTimeInterval(60)), by: shop.operatorConsole)
            }
            #expect(future?.context["field"] == "since")
            #expect(try await shop.keycat.auditLog.recent(limit: 10).filter { $0.action == "webhook.replay" }.count == 2)
        }
    }

    @Test("pruning events deletes their deliveries, and db check stays healthy", arguments: TestStore.allCases)
    func pruneTakesDeliveries(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await shop.endpoint()
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 1))])
            _ = try await shop.keycat.deliverDueWebhooks(shop.deliveryOptions(RecordingSender { _ in 500 }))
            #expect(try await shop.integer("SELECT count(*) FROM webhook_deliveries") == 1)
            shop.clock.advance(by: 31 * 86_400)
            // Pruning always keeps the newest event (positions are never given again), so a
            // young one follows the old.
            try await shop.append([shop.event(.orderPaid, EventAggregate(.order, 2))])
            #expect(try await shop.keycat.pruneEvents() == 1)
            #expect(try await shop.integer("SELECT count(*) FROM webhook_deliveries") == 0)
            #expect(try await shop.keycat.checkHealth().invariantProblems.filter { !$0.contains("does not exist") }.isEmpty)
        }
    }

    @Test("the delivery loop delivers an event when it commits, woken by the log and not by a clock", arguments: TestStore.allCases)
    func loopWakes(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await shop.endpoint()
            let receiver = RecordingSender()
            var options = shop.deliveryOptions(receiver)
            options.idleCheck = .seconds(60)  // only a wake-up can deliver within the test
            let keycat = shop.keycat
            let loop = Task { try await keycat.deliverWebhooks(options) }
            defer { loop.cancel() }
            let events = (1...3).map { shop.event(.orderPaid, EventAggregate(.order, Int64($0))) }
            try await shop.append(events)
            try await waitUntil { receiver.requests.count == 3 }
            try await waitUntil { try await shop.deliveries().allSatisfy { $0.status == .delivered } }
            #expect(Set(receiver.eventIDs) == Set(events.map(\.id)))
            loop.cancel()
            try await loop.value
        }
    }
}

extension TestShop {
    /// Runs `body` with the shop's delivery queue, for tests of claiming itself.
    func withQueue(_ body: (any WebhookQueueProbe) async throws -> Void) async throws {
        try await keycat.withWebhookQueue(body)
    }
}

/// The queue's calls, over either store.
protocol WebhookQueueProbe: Sendable {
    func fanOut(limit: Int, at now: Date) async throws(KeyCatError) -> (events: Int, deliveries: Int)
    func claim(owner: String, at now: Date, lease: TimeInterval, limit: Int, perEndpoint: Int) async throws(KeyCatError) -> [WebhookJob]
    func record(_ outcomes: [WebhookJobOutcome], owner: String, at now: Date, schedule: WebhookRetrySchedule) async throws(KeyCatError) -> [Int64]
}

extension SQLWebhookDeliveryQueue: WebhookQueueProbe {}
