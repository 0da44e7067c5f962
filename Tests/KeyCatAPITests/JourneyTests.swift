import Foundation
import KeyCat
import KeyCatAPI
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

@Suite("A client's whole journey through the HTTP API")
struct JourneyTests {
    @Test("sign up, browse with cursors, bookmark, cart, checkout, pay, confirm, webhooks, review, refund, token expiry", arguments: TestStore.allCases)
    func journey(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            // Listings by two sellers.
            var ids: [Int64] = []
            for index in 0..<5 { ids.append(try await server.product(price: 10_000 * (index + 1), title: "Keyboard \(index)")) }

            // Sign up and log in.
            let signUp = try await server.send("POST", "/users", json: [
                "email": "mina@example.com", "password": "keycat123", "nick": "mina", "birthday": "1999-04-01",
            ])
            #expect(signUp.status == 201, "\(signUp)")
            #expect(signUp["email"] as? String == "mina@example.com" && signUp["role"] as? String == "buyer")
            #expect(signUp["birthday"] as? String == "1999-04-01")
            #expect(signUp.object["password"] == nil && signUp.object["password_hash"] == nil)
            let logIn = try await server.send("POST", "/sessions", json: ["email": "mina@example.com", "password": "keycat123"])
            #expect(logIn.status == 200, "\(logIn)")
            #expect(logIn["token_type"] as? String == "Bearer")
            var access = try #require(logIn["access_token"] as? String)
            var refresh = try #require(logIn["refresh_token"] as? String)
            let me = try await server.send("GET", "/me", token: access)
            #expect(me.status == 200 && me["nick"] as? String == "mina", "\(me)")

            // Browse cheapest first, two at a time, following the cursor to the end.
            var seen: [Int64] = []
            var target = "/products?sort=price_asc&limit=2"
            while true {
                let page = try await server.send("GET", target)
                #expect(page.status == 200, "\(page)")
                seen += page.items.compactMap { ($0["id"] as? NSNumber)?.int64Value }
                #expect(page.object.keys.contains("next_cursor"))
                guard let next = page["next_cursor"] as? String else {
                    #expect(page["next_cursor"] is NSNull)
                    break
                }
                target = "/products?sort=price_asc&limit=2&next=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            }
            #expect(seen == ids)
            // The cursor is bound to its sort.
            let first = try await server.send("GET", "/products?sort=price_asc&limit=2")
            let cursor = try #require(first["next_cursor"] as? String)
            let replayed = try await server.send("GET", "/products?sort=newest&limit=2&next=\(cursor)")
            #expect(replayed.status == 400 && replayed.code == "invalid_cursor", "\(replayed)")
            let filtered = try await server.send("GET", "/products?min_price=20000&max_price=30000&switch_type=linear&hot_swap=true")
            #expect(filtered.items.count == 2, "\(filtered)")
            let product = try await server.send("GET", "/products/\(ids[1])")
            #expect(product["price"] as? Int == 20_000 && (product["spec"] as? [String: Any])?["switch_type"] as? String == "linear")

            // Bookmark, idempotently.
            for _ in 0..<2 {
                let put = try await server.send("PUT", "/products/\(ids[1])/bookmark", token: access)
                #expect(put.status == 200 && put["bookmarked"] as? Bool == true, "\(put)")
            }
            let bookmarks = try await server.send("GET", "/me/bookmarks", token: access)
            #expect(bookmarks.items.count == 1 && bookmarks["next_cursor"] is NSNull, "\(bookmarks)")
            #expect(try await server.send("GET", "/products/\(ids[1])")["bookmark_count"] as? Int == 1)

            // Cart and checkout with an Idempotency-Key: the retry answers with the same order.
            let added = try await server.send("POST", "/cart/items", json: ["product_id": ids[1], "quantity": 2], token: access)
            #expect(added.status == 200 && added["total"] as? Int == 2 * 20_000 + 3_000, "\(added)")
            let checkout = try await server.send("POST", "/checkout", token: access, headers: ["Idempotency-Key": "checkout-1"])
            #expect(checkout.status == 201, "\(checkout)")
            let retry = try await server.send("POST", "/checkout", token: access, headers: ["idempotency-key": "checkout-1"])
            #expect(retry.int("id") == checkout.int("id"), "\(retry)")
            #expect(checkout["status"] as? String == "awaiting_payment")
            let orderID = try #require(checkout.int("id"))
            let merchantUID = try #require(checkout["merchant_uid"] as? String)
            #expect(try await server.send("GET", "/products/\(ids[1])")["stock"] as? Int == 8)

            // Pay at the simulator, confirm, and the PG's webhook arrives twice: the order is paid once.
            server.simulator.configureFaults(.init(webhookDuplicateRate: 1))
            let payment = try server.simulator.pay(merchantUID: merchantUID, cardNumber: PGTestCard.success.number)
            let confirmed = try await server.send("POST", "/orders/\(orderID)/confirm", json: ["imp_uid": payment.impUID], token: access)
            #expect(confirmed.status == 200 && confirmed["status"] as? String == "paid", "\(confirmed)")
            #expect(await server.simulator.deliverPendingWebhooks() == 2)
            let order = try await server.send("GET", "/orders/\(orderID)", token: access)
            #expect(order["status"] as? String == "paid" && order["imp_uid"] as? String == payment.impUID)
            let mine = try await server.send("GET", "/orders?status=paid", token: access)
            #expect(mine.items.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [orderID])

            // An operator ships it and it is delivered; then the buyer reviews what was bought.
            let admin = try await server.signedIn(.admin, "operator")
            let shipped = try await server.send("POST", "/orders/\(orderID)/ship", json: ["carrier": "CJ", "tracking_number": "123456789012"],
                                                token: admin.token)
            #expect(shipped["status"] as? String == "shipped", "\(shipped)")
            #expect(try await server.send("POST", "/orders/\(orderID)/deliver", token: admin.token)["status"] as? String == "delivered")
            let review = try await server.send("POST", "/products/\(ids[1])/reviews",
                                               json: ["rating": 5, "content": "타건감이 훌륭합니다. 추천해요!"], token: access)
            #expect(review.status == 201 && review["author_nick"] as? String == "mina", "\(review)")
            let reviews = try await server.send("GET", "/products/\(ids[1])/reviews")
            #expect(reviews.items.count == 1)

            // An operator refunds part of it; a buyer may not.
            let refundBody: [String: Any] = ["amount": 10_000, "reason": "scratched case"]
            let denied = try await server.send("POST", "/orders/\(orderID)/refund", json: refundBody, token: access)
            #expect(denied.status == 403 && denied.code == "forbidden", "\(denied)")
            let refunded = try await server.send("POST", "/orders/\(orderID)/refund", json: refundBody, token: admin.token,
                                                 headers: ["Idempotency-Key": "refund-1"])
            #expect(refunded.status == 200 && refunded["status"] as? String == "partially_refunded", "\(refunded)")
            #expect(refunded["refunded_amount"] as? Int == 10_000)
            let refunds = try await server.send("GET", "/orders/\(orderID)/refunds", token: access)
            #expect(refunds.items.first?["amount"] as? Int == 10_000, "\(refunds)")

            // The access token expires: 401 access_token_expired, refresh, retry.
            server.clock.advance(by: 16 * 60)
            let expired = try await server.send("GET", "/me", token: access)
            #expect(expired.status == 401 && expired.code == "access_token_expired", "\(expired)")
            let refreshed = try await server.send("POST", "/sessions/refresh", json: ["refresh_token": refresh])
            #expect(refreshed.status == 200, "\(refreshed)")
            let oldRefresh = refresh
            access = try #require(refreshed["access_token"] as? String)
            refresh = try #require(refreshed["refresh_token"] as? String)
            #expect(try await server.send("GET", "/me", token: access).status == 200)

            // The old refresh token comes back: 400 invalid_grant, and its whole family is revoked.
            let reused = try await server.send("POST", "/sessions/refresh", json: ["refresh_token": oldRefresh])
            #expect(reused.status == 400 && reused.code == "refresh_token_expired", "\(reused)")
            let revoked = try await server.send("POST", "/sessions/refresh", json: ["refresh_token": refresh])
            #expect(revoked.status == 400, "\(revoked)")
        }
    }

    @Test("someone else's order is 403, a missing one 404, and log-out ends the session", arguments: TestStore.allCases)
    func ownership(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let productID = try await server.product()
            let buyer = try await server.signedIn(.buyer, "buyer")
            let other = try await server.signedIn(.buyer, "other")
            let checkout = try await server.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                                 token: buyer.token)
            #expect(checkout.status == 201, "\(checkout)")
            let orderID = try #require(checkout.int("id"))
            let theirs = try await server.send("GET", "/orders/\(orderID)", token: other.token)
            #expect(theirs.status == 403 && theirs.code == "not_owner", "\(theirs)")
            let missing = try await server.send("GET", "/orders/9223372036854775807", token: buyer.token)
            #expect(missing.status == 404 && missing.code == "not_found", "\(missing)")
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
        }
    }
}
