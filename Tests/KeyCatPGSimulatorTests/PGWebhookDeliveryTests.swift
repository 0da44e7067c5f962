import Foundation
import KeyCatInfrastructure
import Synchronization
import Testing
@testable import KeyCatPGSimulator

/// A webhook receiver that records what it gets and can refuse the first deliveries.
final class RecordingReceiver: HTTPTransport {
    private let received = Mutex<[TransportRequest]>([])
    private let refusals: Mutex<Int>

    init(refuseFirst count: Int = 0) { refusals = Mutex(count) }

    func send(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        received.withLock { $0.append(request) }
        let refuse = refusals.withLock { count -> Bool in
            defer { count -= 1 }
            return count > 0
        }
        return TransportResponse(status: refuse ? 500 : 204)
    }

    var requests: [TransportRequest] { received.withLock { $0 } }
}

@Suite("PG simulator webhooks")
struct PGWebhookDeliveryTests {
    @Test("a payment sends a signed {imp_uid, merchant_uid, status} webhook")
    func signedWebhook() async throws {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let simulator = try PGSimulator(now: { now })
        let receiver = RecordingReceiver()
        simulator.registerWebhookReceiver(receiver, path: "/webhooks/pg")
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        #expect(await simulator.deliverPendingWebhooks() == 1)

        let request = try #require(receiver.requests.first)
        #expect(request.path == "/webhooks/pg")
        let id = try #require(request.header("webhook-id"))
        #expect(request.header("webhook-timestamp") == "1767225600")
        #expect(request.header("webhook-signature") == StandardWebhookSignature.sign(
            id: id, timestamp: 1_767_225_600, body: request.body, secret: simulator.webhookSecret))
        let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(json == ["imp_uid": paid.impUID, "merchant_uid": "order-1", "status": "paid"])
    }

    @Test("an unacknowledged webhook is delivered again with the same id")
    func atLeastOnce() async throws {
        let simulator = try PGSimulator()
        let receiver = RecordingReceiver(refuseFirst: 1)
        simulator.registerWebhookReceiver(receiver, path: "/hook")
        try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        #expect(await simulator.deliverPendingWebhooks() == 0)
        #expect(simulator.pendingWebhookCount == 1)
        #expect(await simulator.deliverPendingWebhooks() == 1)
        let ids = receiver.requests.compactMap { $0.header("webhook-id") }
        #expect(ids.count == 2 && ids[0] == ids[1])
    }

    @Test("duplicates and reordering follow the seed")
    func duplicatesAndReordering() async throws {
        func deliveredIDs(seed: UInt64) async throws -> (ids: [String], order: [String]) {
            let simulator = try PGSimulator(faults: PGFaultConfiguration(
                seed: seed, webhookDuplicateRate: 0.5, webhookReordering: true))
            let receiver = RecordingReceiver()
            simulator.registerWebhookReceiver(receiver, path: "/hook")
            for index in 0..<20 {
                try simulator.pay(merchantUID: "order-\(index)", cardNumber: PGTestCard.success.number, amount: 1_000)
            }
            await simulator.deliverPendingWebhooks()
            let merchants = receiver.requests.compactMap {
                (try? JSONSerialization.jsonObject(with: $0.body) as? [String: String])?["merchant_uid"]
            }
            return (receiver.requests.compactMap { $0.header("webhook-id") }, merchants)
        }
        let run = try await deliveredIDs(seed: 3)
        #expect(run.ids.count > 20)  // some were duplicated
        #expect(Set(run.ids).count == 20)  // and none lost
        let firstArrivals = run.order.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        #expect(firstArrivals != (0..<20).map { "order-\($0)" })  // and not in the order they happened
        #expect(run.order == (try await deliveredIDs(seed: 3)).order)
    }
}
