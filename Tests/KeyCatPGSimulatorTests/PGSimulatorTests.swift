import Foundation
import KeyCatInfrastructure
import Testing
@testable import KeyCatPGSimulator

@Suite("PG simulator")
struct PGSimulatorTests {
    @Test("each test card gives its outcome", arguments: PGTestCard.allCases)
    func testCards(_ card: PGTestCard) throws {
        let simulator = try PGSimulator()
        let payment = try simulator.pay(merchantUID: "order-\(card)", cardNumber: card.number, amount: 5_000)
        #expect(payment.status == (card == .success ? .paid : .failed))
        #expect(payment.failureReason == card.failureReason)
        #expect(payment.cardLast4 == String(card.number.suffix(4)))
    }

    @Test("an unknown card number is declined as invalid")
    func unknownCard() throws {
        let payment = try PGSimulator().pay(merchantUID: "order-1", cardNumber: "1234 5678 9012 3456", amount: 5_000)
        #expect(payment.status == .failed)
        #expect(payment.failureReason == "invalid card number")
    }

    @Test("paying another amount than the prepared one fails the attempt")
    func amountMismatch() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let prepared = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
        #expect(prepared.status == 200)
        let payment = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 100)
        #expect(payment.status == .failed)
        #expect(payment.amount == 10_000)
    }

    @Test("requests without a valid token are v1's 401 Unauthorized in an envelope")
    func unauthorized() async throws {
        let simulator = try PGSimulator()
        let answer = try await SimulatorClient(simulator: simulator).send(.get, "/payments/imp_1")
        #expect(answer.status == 401)
        #expect(answer.json["message"] as? String == "Unauthorized")
        #expect(answer.json["type"] == nil)
        #expect(answer.json["code"] as? Int == -1)
        #expect(answer.json["response"] is NSNull)
    }

    @Test("expired tokens are refused")
    func tokenExpiry() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        #expect(try await client.send(.get, "/payments/imp_1").status == 404)
        simulator.expireTokens()
        #expect(try await client.send(.get, "/payments/imp_1").status == 401)
    }

    @Test("partial then full cancel keeps the history and ends cancelled")
    func cancelHistory() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        let partial = try await client.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 3_000, "checksum": 10_000, "reason": "one"])
        #expect(partial.status == 200)
        let rest = try await client.send(.post, "/payments/cancel", ["merchant_uid": "order-1", "checksum": 7_000, "reason": "rest"])
        let response = rest.json["response"] as? [String: Any]
        #expect(response?["status"] as? String == "cancelled")
        #expect(response?["cancel_amount"] as? Int == 10_000)
        #expect(simulator.cancellations(impUID: paid.impUID).map(\.amount) == [3_000, 7_000])
    }

    @Test("like v1, a repeated cancel runs again: its checksum is what refuses the second one")
    func repeatedCancel() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        let body: [String: Any] = ["imp_uid": paid.impUID, "amount": 1_000, "checksum": 10_000, "reason": "r"]
        let first = try await client.send(.post, "/payments/cancel", body, headers: ["Idempotency-Key": "refund-1"])
        let second = try await client.send(.post, "/payments/cancel", body, headers: ["Idempotency-Key": "refund-1"])
        #expect(first.json["code"] as? Int == 0)
        #expect(second.status == 200)
        #expect(second.json["code"] as? Int == 1)
        #expect((second.json["message"] as? String)?.contains("checksum") == true)
        #expect(second.json["response"] is NSNull)
        #expect(simulator.cancellations(impUID: paid.impUID).count == 1)
        let unchecked: [String: Any] = ["imp_uid": paid.impUID, "amount": 1_000, "reason": "no checksum"]
        #expect(try await client.send(.post, "/payments/cancel", unchecked).json["code"] as? Int == 0)
        #expect(simulator.cancellations(impUID: paid.impUID).count == 2)
    }

    @Test("a lost answer is applied and then times out")
    func lostAnswer() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        simulator.injectFault(.lostAnswer, on: .prepare)
        await #expect(throws: HTTPTransportError.timedOut) {
            _ = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
        }
        #expect(simulator.prepared(merchantUID: "order-1")?.amount == 10_000)
        #expect(simulator.payment(merchantUID: "order-1") == nil)
    }

    @Test("latency longer than the caller's timeout applies the request and times out")
    func latencyTimeout() async throws {
        let simulator = try PGSimulator(faults: PGFaultConfiguration(latency: .seconds(30)), sleeper: NoSleep())
        let request = TransportRequest(method: .post, path: "/users/getToken", body: Data(#"{"imp_key":"imp_test_key","imp_secret":"imp_test_secret_do_not_log"}"#.utf8))
        await #expect(throws: HTTPTransportError.timedOut) { _ = try await simulator.handle(request, timeout: .seconds(1)) }
        #expect(try await simulator.handle(request, timeout: .seconds(60)).status == 200)
    }

    @Test("random faults are the same for the same seed")
    func seededFaults() async throws {
        func statuses(seed: UInt64) async throws -> [Int] {
            let simulator = try PGSimulator(faults: PGFaultConfiguration(seed: seed, serverErrorRate: 0.3, rateLimitRate: 0.2))
            var statuses: [Int] = []
            for _ in 0..<40 {
                let answer = try await SimulatorClient(simulator: simulator).send(.get, "/payments/imp_1")
                statuses.append(answer.status)
            }
            return statuses
        }
        let first = try await statuses(seed: 7)
        #expect(first == (try await statuses(seed: 7)))
        #expect(Set(first).isSuperset(of: [401, 429]))
        #expect(first.contains { $0 >= 500 })
    }

    @Test("the state file sits beside the database")
    func storagePath() {
        #expect(PGSimulator.storagePath(besideDatabase: "/data/keycat.db") == "/data/keycat.pg.db")
        #expect(PGSimulator.storagePath(besideDatabase: "shop.sqlite") == "shop.sqlite.pg.db")
    }

    @Test("two simulators on one file see one PG")
    func sharedFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = PGSimulator.storagePath(besideDatabase: directory.appendingPathComponent("keycat.db").path)
        let first = try PGSimulator(storage: .file(path: path))
        let second = try PGSimulator(storage: .file(path: path))
        defer { first.close(); second.close() }

        var firstClient = SimulatorClient(simulator: first)
        try await firstClient.authenticate()
        _ = try await firstClient.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
        let paid = try second.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number)
        // A token issued by one is accepted by the other, and the payment made through the
        // second is refunded through the first.
        var secondClient = SimulatorClient(simulator: second)
        secondClient.token = firstClient.token
        #expect(try await secondClient.send(.get, "/payments/\(paid.impUID)").status == 200)
        let refund = try await firstClient.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "checksum": 10_000, "reason": "r"])
        #expect(refund.status == 200)
        #expect(second.payment(impUID: paid.impUID)?.status == .cancelled)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
