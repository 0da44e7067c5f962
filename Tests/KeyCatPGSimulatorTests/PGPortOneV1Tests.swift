import Foundation
import KeyCatInfrastructure
import Testing
@testable import KeyCatPGSimulator

/// The simulator as PortOne v1's clients see it: forms, v1's refusals, prepare apart from the
/// payment, the lookups v1 has, and v1's webhooks.
@Suite("PG simulator: PortOne v1 on the wire")
struct PGPortOneV1Tests {
    @Test("a form body gets a token and cancels, amounts as text, the token sent bare")
    func formBodies() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        let token = try await client.sendForm("/users/getToken", [("imp_key", "imp_test_key"), ("imp_secret", "imp_test_secret_do_not_log")])
        #expect(token.status == 200 && token.json["code"] as? Int == 0)
        client.token = (token.json["response"] as? [String: Any])?["access_token"] as? String
        let paid = try simulator.pay(merchantUID: "order 1", cardNumber: PGTestCard.success.number, amount: 10_000)
        let cancelled = try await client.sendForm("/payments/cancel", [
            ("merchant_uid", "order 1"), ("amount", "2500.0"), ("checksum", "10000"), ("reason", "스위치 불량 & 교환"),
        ])
        let response = try #require(cancelled.json["response"] as? [String: Any])
        #expect(response["cancel_amount"] as? Int == 2_500)
        #expect(response["cancel_reason"] as? String == "스위치 불량 & 교환")
        #expect(simulator.cancellations(impUID: paid.impUID).map(\.amount) == [2_500])
        let fraction = try await client.sendForm("/payments/cancel", [("imp_uid", paid.impUID), ("amount", "0.5")])
        #expect(fraction.status == 400 && fraction.json["code"] as? Int == -1)
    }

    @Test("a malformed query or form gets an answer, never a trap", arguments: [
        "/payments/status/all?sorting={\"x\"}&limit=%ZZ", "/payments/status/all?limit=%", "/payments/status/paid?&&=&from=| |",
    ])
    func hostileQuery(_ path: String) async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        #expect(try await client.send(.get, path).status == 400)
        let form = try await client.sendForm("/payments/cancel", [("imp_uid%ZZ", "%"), ("=", "&")])
        #expect(form.status == 400 && form.json["code"] as? Int == -1)
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        for checksum: Any in ["abc", 1_000.5, true] {
            // A checksum that is there but no whole number is refused, never taken as absent.
            let answer = try await client.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 1, "checksum": checksum])
            #expect(answer.status == 400)
        }
        #expect(simulator.cancellations(impUID: paid.impUID).isEmpty)
    }

    @Test("business refusals are HTTP 200 with code 1, v1's message and a null response", arguments: [
        ("unknown", "취소할 결제건이 존재하지 않습니다."),
        ("cancelled", "이미 전액취소된 주문입니다."),
        ("ready", "결제완료 상태가 아닌 결제건은 취소할 수 없습니다."),
        ("checksum", "checksum(9000원)이 취소가능잔액(10000원)과 일치하지 않습니다."),
        ("too much", "취소요청금액(20000원)이 취소가능잔액(10000원)을 초과합니다."),
    ])
    func refusals(_ case: String, _ message: String) async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        var body: [String: Any] = ["reason": "r"]
        switch `case` {
        case "unknown":
            body["imp_uid"] = "imp_000000000000"
        case "ready":
            _ = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
            body["imp_uid"] = try #require(try simulator.openWindow(merchantUID: "order-1")).impUID
        default:
            let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
            body["imp_uid"] = paid.impUID
            if `case` == "cancelled" { _ = try await client.send(.post, "/payments/cancel", body) }
            if `case` == "checksum" { body["checksum"] = 9_000 }
            if `case` == "too much" { body["amount"] = 20_000 }
        }
        let answer = try await client.send(.post, "/payments/cancel", body)
        #expect(answer.status == 200)
        #expect(answer.json["code"] as? Int == 1)
        #expect(answer.json["message"] as? String == message)
        #expect(answer.json["response"] is NSNull)
    }

    @Test("prepare registers an amount once; the payment appears when the window opens")
    func prepareThenWindow() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let first = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
        #expect(first.json["response"] as? [String: Any] as NSDictionary? == ["merchant_uid": "order-1", "amount": 10_000])
        let again = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 10_000])
        #expect(again.status == 200 && again.json["code"] as? Int == 1)
        #expect((again.json["message"] as? String)?.contains("사전등록된 merchant_uid") == true)
        let changed = try await client.send(.put, "/payments/prepare", ["merchant_uid": "order-1", "amount": 12_000])
        #expect((changed.json["response"] as? [String: Any])?["amount"] as? Int == 12_000)
        let lookup = try await client.send(.get, "/payments/prepare/order-1")
        #expect((lookup.json["response"] as? [String: Any])?["amount"] as? Int == 12_000)
        #expect(try await client.send(.get, "/payments/prepare/order-2").status == 404)
        #expect(try await client.send(.put, "/payments/prepare", ["merchant_uid": "order-2", "amount": 1]).status == 404)

        #expect(try await client.send(.get, "/payments/find/order-1").status == 404)
        let opened = try #require(try simulator.openWindow(merchantUID: "order-1"))
        #expect(opened.status == .ready && opened.amount == 12_000)
        // The merchant changes the amount while the window is open: the window follows it.
        _ = try await client.send(.put, "/payments/prepare", ["merchant_uid": "order-1", "amount": 11_000])
        #expect(try simulator.openWindow(merchantUID: "order-1")?.amount == 11_000)
        _ = try await client.send(.put, "/payments/prepare", ["merchant_uid": "order-1", "amount": 12_000])
        #expect(try simulator.openWindow(merchantUID: "order-1")?.impUID == opened.impUID)
        let found = try await client.send(.get, "/payments/find/order-1")
        #expect((found.json["response"] as? [String: Any])?["imp_uid"] as? String == opened.impUID)
        #expect(try simulator.openWindow(merchantUID: "order-9") == nil)

        let failed = try #require(try simulator.cancelWindow(merchantUID: "order-1"))
        #expect(failed.status == .failed && failed.failureReason == "사용자가 결제를 취소하셨습니다" && failed.failedAt != nil)
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number)
        #expect(paid.impUID != opened.impUID && paid.status == .paid && paid.amount == 12_000)
        let late = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 12_000])
        #expect(late.json["code"] as? Int == 1 && (late.json["message"] as? String)?.contains("이미 결제완료") == true)
        #expect(throws: PGSimulatorError.alreadyPaid(merchantUID: "order-1")) { try simulator.openWindow(merchantUID: "order-1") }
    }

    @Test("find with a status and findAll read every attempt of a merchant UID, in v1's sorting")
    func findAndFindAll() async throws {
        let clock = TestClockBox()
        let simulator = try PGSimulator(now: { clock.now() })
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        _ = try await client.send(.post, "/payments/prepare", ["merchant_uid": "order-1", "amount": 5_000])
        var attempts: [PGPaymentRecord] = []
        for card in [PGTestCard.declined, .expiredCard, .success] {
            clock.advance(60)
            attempts.append(try simulator.pay(merchantUID: "order-1", cardNumber: card.number))
        }
        let all = try await client.send(.get, "/payments/findAll/order-1")
        let page = try #require(all.json["response"] as? [String: Any])
        #expect(page["total"] as? Int == 3)
        #expect((page["list"] as? [[String: Any]])?.compactMap { $0["imp_uid"] as? String } == attempts.reversed().map(\.impUID))
        let oldestFirst = try await client.send(.get, "/payments/findAll/order-1/failed?sorting=started")
        #expect(((oldestFirst.json["response"] as? [String: Any])?["list"] as? [[String: Any]])?.compactMap { $0["imp_uid"] as? String }
            == [attempts[0].impUID, attempts[1].impUID])
        let newestFailed = try await client.send(.get, "/payments/find/order-1/failed")
        #expect((newestFailed.json["response"] as? [String: Any])?["imp_uid"] as? String == attempts[1].impUID)
        let byPaid = try await client.send(.get, "/payments/find/order-1?sorting=-paid")
        #expect((byPaid.json["response"] as? [String: Any])?["imp_uid"] as? String == attempts[2].impUID)
        #expect(try await client.send(.get, "/payments/find/order-1/cancelled").status == 404)
        #expect(try await client.send(.get, "/payments/findAll/order-9").status == 404)
        #expect(try await client.send(.get, "/payments/find/order-1?sorting=price").status == 400)
    }

    @Test("a payment carries every field v1 requires, times in whole unix seconds")
    func requiredFields() async throws {
        let simulator = try PGSimulator(now: { Date(timeIntervalSince1970: 1_767_225_600.75) })
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        _ = try await client.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 1_000, "reason": "one"])
        let payment = try #require(try await client.send(.get, "/payments/\(paid.impUID)").json["response"] as? [String: Any])
        for field in ["imp_uid", "merchant_uid", "pay_method", "channel", "pg_provider", "pg_tid", "escrow", "apply_num",
                      "card_quota", "amount", "cancel_amount", "currency", "user_agent", "status", "started_at", "paid_at",
                      "failed_at", "cancelled_at", "receipt_url", "cancel_history", "cancel_receipt_urls",
                      "cash_receipt_issued", "sandbox", "vbank_date", "vbank_issued_at", "cancel_reason"] {
            #expect(payment[field] != nil && !(payment[field] is NSNull), "\(field)")
        }
        #expect(payment["currency"] as? String == "KRW")
        #expect(payment["paid_at"] as? Int == 1_767_225_600)
        #expect(payment["failed_at"] as? Int == 0)
        let entry = try #require((payment["cancel_history"] as? [[String: Any]])?.first)
        #expect(entry["cancellation_id"] as? String == "cancel_1")
        #expect((entry["pg_tid"] as? String)?.isEmpty == false)
        #expect(entry["cancelled_at"] as? Int == 1_767_225_600)
    }

    @Test("v1 webhooks: unsigned, sent once, none without a receiver nor for a declined card, API cancels only when asked")
    func v1Webhooks() async throws {
        let simulator = try PGSimulator(webhookStyle: .portOneV1(notifyingAPICancels: false))
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        _ = try simulator.pay(merchantUID: "order-0", cardNumber: PGTestCard.success.number, amount: 1_000)
        #expect(simulator.pendingWebhookCount == 0)  // no notification URL: v1 sends nothing

        let receiver = RecordingReceiver()
        simulator.registerWebhookReceiver(receiver, path: "/webhooks/pg")
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
        _ = try await client.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 1_000])
        #expect(await simulator.deliverPendingWebhooks() == 1)
        let request = try #require(receiver.requests.first)
        #expect(request.header("webhook-signature") == nil && request.header("webhook-id") == nil)
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(body == ["imp_uid": paid.impUID, "merchant_uid": "order-1", "status": "paid"])

        simulator.configureWebhooks(.portOneV1(notifyingAPICancels: true))
        _ = try await client.send(.post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 1_000])
        #expect(await simulator.deliverPendingWebhooks() == 1)
        _ = try simulator.pay(merchantUID: "order-2", cardNumber: PGTestCard.declined.number, amount: 1_000)
        #expect(simulator.pendingWebhookCount == 0)  // v1 does not notify a declined card

        let refusing = RecordingReceiver(refuseFirst: 1)
        simulator.registerWebhookReceiver(refusing, path: "/webhooks/pg")
        _ = try simulator.pay(merchantUID: "order-3", cardNumber: PGTestCard.success.number, amount: 1_000)
        #expect(await simulator.deliverPendingWebhooks() == 0)
        #expect(simulator.pendingWebhookCount == 0)  // v1 sends once: not kept for another try
        #expect(await simulator.deliverPendingWebhooks() == 0 && refusing.requests.count == 1)
    }

    @Test("an older simulator file keeps its prepared amounts when it gains the prepared table")
    func migratesOlderFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("keycat.pg.db").path
        var configuration = SQLiteConfiguration()
        configuration.application = PGStore.application
        let old = try SQLiteDatabase(path: path, configuration: configuration)
        try SchemaMigrator(migrations: Array(PGStore.migrations.prefix(2))).migrate(old)
        _ = try old.blockingWrite {
            try $0.run("""
                INSERT INTO pg_payments (imp_uid, merchant_uid, amount, status, seq, started_at)
                VALUES ('imp_1', 'order-1', 8000, 'ready', 1, 1767225600)
                """)
        }
        old.close()
        let simulator = try PGSimulator(storage: .file(path: path))
        defer { simulator.close() }
        #expect(simulator.prepared(merchantUID: "order-1")?.amount == 8_000)
        #expect(try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number).impUID == "imp_1")
    }
}
