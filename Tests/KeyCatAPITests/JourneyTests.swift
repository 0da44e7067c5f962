import Foundation
import KeyCat
import KeyCatAPI
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

@Suite("A client's whole journey through the HTTP API")
struct JourneyTests {
    @Test("sign up, browse with cursors, bookmark, cart, checkout, pay, confirm, webhooks, review, refund, token expiry",
          arguments: TestStore.allCases)
    func journey(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in try await Journey.run(in: InProcessJourneyShop(server: server)) }
    }

    @Test("someone else's order answers as a missing one does, 404, on every route of it; log-out ends the session",
          arguments: TestStore.allCases)
    func ownership(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let productID = try await server.product()
            let buyer = try await server.signedIn(.buyer, "buyer")
            let other = try await server.signedIn(.buyer, "other")
            let checkout = try await server.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                                 token: buyer.token)
            #expect(checkout.status == 201, "\(checkout)")
            let orderID = try #require(checkout.int("id"))
            let missingID: Int64 = 9_223_372_036_854_775_807
            for (method, path, body) in [
                ("GET", "", nil), ("GET", "/refunds", nil), ("GET", "/returns", nil),
                ("POST", "/confirm", ["imp_uid": "imp_000000000000"] as [String: Any]?), ("POST", "/cancel", ["reason": "not mine to cancel"]),
            ] {
                let theirs = try await server.send(method, "/orders/\(orderID)\(path)", json: body, token: other.token)
                let missing = try await server.send(method, "/orders/\(missingID)\(path)", json: body, token: other.token)
                #expect(theirs.status == 404 && theirs.code == "not_found", "\(method) \(path): \(theirs)")
                // The same answer but for the id it names: nothing tells that the order exists.
                #expect(theirs.description.replacingOccurrences(of: "\(orderID)", with: "\(missingID)") == missing.description,
                        "\(method) \(path): \(theirs) vs \(missing)")
            }
            #expect(try await server.send("GET", "/orders/\(orderID)", token: buyer.token)["status"] as? String == "awaiting_payment")
            let cancelled = try await server.send("POST", "/orders/\(orderID)/cancel", json: ["reason": "changed my mind"],
                                                  token: buyer.token)
            #expect(cancelled.status == 200 && cancelled["status"] as? String == "cancelled", "\(cancelled)")

            let logIn = try await server.send("POST", "/sessions", json: ["email": "buyer@example.com", "password": "keycat123"])
            let refresh = try #require(logIn["refresh_token"] as? String)
            #expect(try await server.send("POST", "/sessions/logout", json: ["refresh_token": refresh]).status == 204)
            #expect(try await server.send("POST", "/sessions/refresh", json: ["refresh_token": refresh]).status == 400)
            let wrong = try await server.send("POST", "/sessions", json: ["email": "buyer@example.com", "password": "wrong-password"])
            #expect(wrong.status == 401 && wrong.code == "invalid_credentials", "\(wrong)")
        }
    }

    @Test("a signed webhook for a payment the PG cannot find is acknowledged, as WebhookHTTPHandler does", arguments: TestStore.allCases)
    func webhookForUnknownPayment(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let productID = try await server.product()
            let buyer = try await server.signedIn(.buyer, "buyer")
            let checkout = try await server.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                                 token: buyer.token)
            let merchantUID = try #require(checkout["merchant_uid"] as? String)
            let body = Data(#"{"imp_uid":"imp_nowhere","merchant_uid":"\#(merchantUID)","status":"paid"}"#.utf8)
            let timestamp = Int64(server.clock.now().timeIntervalSince1970)
            let signature = StandardWebhookSignature.sign(
                id: "msg_unknown", timestamp: timestamp, body: body, secret: server.simulator.webhookSecret)
            let answer = await server.api.respond(to: APIRequest(
                method: "POST", path: "/webhooks/pg",
                headers: ["Content-Type": "application/json", "Webhook-Id": "msg_unknown", "Webhook-Timestamp": String(timestamp),
                          "Webhook-Signature": signature],
                body: Array(body)))
            #expect(answer.status == 200, "\(answer)")
            let unsigned = try await server.send("POST", "/webhooks/pg", json: ["imp_uid": "x", "merchant_uid": merchantUID])
            #expect(unsigned.status == 400, "\(unsigned)")
            #expect(try await server.send("GET", "/orders/\(checkout.int("id")!)", token: buyer.token)["status"] as? String
                == "awaiting_payment")
        }
    }
}

@Suite("Server failures through the API")
struct ServerFailureTests {
    @Test("a database that fails answers 500 storage with a body that names no file", arguments: TestStore.allCases)
    func storageFailure(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let path = server.keycat.configuration.databasePath
            server.keycat.close()
            let answer = try await server.send("GET", "/products")
            #expect(answer.status == 500 && answer.code == "storage", "\(answer)")
            #expect(Set(answer.object.keys) == ["code", "message"])
            let text = String(decoding: answer.response.body, as: UTF8.self)
            #expect(!text.contains(path) && !text.lowercased().contains("sqlite") && !text.lowercased().contains("postgres"),
                    "\(text)")
            // The cause the body keeps back goes to the server's log, one line per 5xx answer;
            // a 4xx writes none.
            let log = CapturingLogSink()
            let logged = KeyCatAPI(server.keycat, serverErrors: log)
            #expect(await logged.respond(to: APIRequest(method: .get, target: "/products/7")).status == 500)
            #expect(await logged.respond(to: APIRequest(method: .get, target: "/products/abc")).status == 404)
            #expect(log.lines.count == 1, "\(log.lines)")
            let line = try #require(log.lines.first)
            #expect(line.hasPrefix("GET /products/{id} answered 500: storage: ") && line.count > "GET /products/{id} answered 500: storage: ".count,
                    "\(line)")
        }
    }
}
