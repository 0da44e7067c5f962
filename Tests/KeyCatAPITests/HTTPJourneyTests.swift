import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator
import Testing

/// The whole journey of a buyer, a seller and an operator through the example server over real
/// HTTP, with the PG simulator's payment window as the buyer's card form. The server's access
/// tokens live a few seconds (`KEYCAT_ACCESS_TOKEN_SECONDS`), so expiry is real.
@Suite("A journey over real HTTP", .serialized, .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HTTPJourneyTests {
    @Test("sign up, browse, bookmark, cart, checkout, pay, confirm, webhooks, review, refund, expiry, reuse")
    func journey() async throws {
        let client = try HTTPTestServer.client()
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        var ids: [Int64] = []
        for index in 0..<5 {
            let created = try await seller.send("POST", "/products", json: Self.product(title: "Journey keycaps \(index)",
                                                                                     price: 10_000 * (index + 1), stock: 10))
            try #require(created.status == 201, "\(created)")
            ids.append(try #require(created.int("id")))
        }

        // Sign up and log in.
        let email = "mina.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": "mina"])
        #expect(signUp.status == 201 && signUp["role"] as? String == "buyer", "\(signUp)")
        #expect(signUp.object["password"] == nil && signUp.object["password_hash"] == nil)
        let buyer = try await client.logIn(email, "keycat123")
        let me = try await buyer.send("GET", "/me")
        #expect(me.status == 200 && me["email"] as? String == email, "\(me)")

        // Browse the seller's keycaps cheapest first, two at a time, following the cursor.
        var seen: [Int64] = []
        let list = "/products?sort=price_asc&limit=2&category=keycap&seller_id=\(seller.userID)"
        var target = list
        for _ in 0..<10 {
            let page = try await client.send("GET", target)
            try #require(page.status == 200, "\(page)")
            seen += page.items.compactMap { ($0["id"] as? NSNumber)?.int64Value }
            guard let next = page["next_cursor"] as? String else { break }
            target = list + "&next=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        }
        #expect(seen == ids)
        let product = try await client.send("GET", "/products/\(ids[1])")
        #expect(product.status == 200 && product["price"] as? Int == 20_000, "\(product)")

        // Bookmark, twice: still one bookmark.
        for _ in 0..<2 {
            let put = try await buyer.send("PUT", "/products/\(ids[1])/bookmark")
            #expect(put.status == 200 && put["bookmarked"] as? Bool == true, "\(put)")
        }
        let bookmarks = try await buyer.send("GET", "/me/bookmarks")
        #expect(bookmarks.items.count == 1, "\(bookmarks)")

        // Cart and checkout; the retry with the same Idempotency-Key answers the same order.
        let added = try await buyer.send("POST", "/cart/items", json: ["product_id": ids[1], "quantity": 2])
        #expect(added.status == 200 && added["total"] as? Int == 2 * 20_000 + 3_000, "\(added)")
        let key = "checkout-\(UUID().uuidString)"
        let checkout = try await buyer.send("POST", "/checkout", headers: ["Idempotency-Key": key])
        try #require(checkout.status == 201, "\(checkout)")
        let retry = try await buyer.send("POST", "/checkout", headers: ["Idempotency-Key": key])
        #expect(retry.int("id") == checkout.int("id"), "\(retry)")
        let orderID = try #require(checkout.int("id"))
        let merchantUID = try #require(checkout["merchant_uid"] as? String)

        // Pay in the simulator's payment window: a declined card, then one that pays.
        let window = try await client.send("GET", "/pg/payments/\(merchantUID)")
        #expect(window.status == 200 && window.text.contains("43000"), "\(window)")
        let declined = try await client.send("POST", "/pg/payments/\(merchantUID)", json: ["card_number": PGTestCard.declined.number])
        #expect(declined.status == 200 && declined["status"] as? String == "failed", "\(declined)")
        let paid = try await client.send("POST", "/pg/payments/\(merchantUID)", body: Data("card_number=4242+4242+4242+4242".utf8),
                                         headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(paid.status == 200 && paid["status"] as? String == "paid", "\(paid)")
        let impUID = try #require(paid["imp_uid"] as? String)
        let confirmed = try await buyer.send("POST", "/orders/\(orderID)/confirm", json: ["imp_uid": impUID])
        #expect(confirmed.status == 200 && confirmed["status"] as? String == "paid", "\(confirmed)")

        // The PG's signed webhook arrives twice: both acknowledged, the order paid once.
        let webhook = Data(#"{"imp_uid":"\#(impUID)","merchant_uid":"\#(merchantUID)","status":"paid"}"#.utf8)
        let webhookID = "msg_\(UUID().uuidString)"
        for _ in 0..<2 {
            let timestamp = Int64(Date().timeIntervalSince1970)
            let signature = await StandardWebhookSignature.sign(id: webhookID, timestamp: timestamp, body: webhook,
                                                                secret: try HTTPTestServer.simulatorWebhookSecret())
            let delivered = try await client.send("POST", "/webhooks/pg", body: webhook, headers: [
                "Content-Type": "application/json", "webhook-id": webhookID, "webhook-timestamp": String(timestamp),
                "webhook-signature": signature,
            ])
            #expect(delivered.status == 200, "\(delivered)")
        }
        let forged = try await client.send("POST", "/webhooks/pg", body: webhook, headers: [
            "Content-Type": "application/json", "webhook-id": "msg_forged", "webhook-timestamp": String(Int64(Date().timeIntervalSince1970)),
            "webhook-signature": "v1,AAAA",
        ])
        #expect(forged.status == 400, "\(forged)")
        let order = try await buyer.send("GET", "/orders/\(orderID)")
        #expect(order["status"] as? String == "paid" && order["imp_uid"] as? String == impUID, "\(order)")

        // A review needs the order delivered: refused while paid, accepted once the operator
        // shipped it and it was delivered.
        let early = try await buyer.send("POST", "/products/\(ids[1])/reviews", json: ["rating": 5, "content": "키감이 아주 좋습니다. 추천해요!"])
        #expect(early.status == 403 && early.code == "forbidden", "\(early)")
        let operatorAccount = try HTTPTestServer.account("OPERATOR")
        let admin = try await client.logIn(operatorAccount.email, operatorAccount.password)
        let shipped = try await admin.send("POST", "/orders/\(orderID)/ship", json: ["carrier": "CJ대한통운", "tracking_number": "123456789012"])
        #expect(shipped.status == 200 && shipped["status"] as? String == "shipped", "\(shipped)")
        let delivered = try await admin.send("POST", "/orders/\(orderID)/deliver")
        #expect(delivered.status == 200 && delivered["status"] as? String == "delivered", "\(delivered)")
        let review = try await buyer.send("POST", "/products/\(ids[1])/reviews", json: ["rating": 5, "content": "키감이 아주 좋습니다. 추천해요!"])
        #expect(review.status == 201, "\(review)")

        // An operator refunds part of it; the buyer may not.
        let refundBody: [String: Any] = ["amount": 10_000, "reason": "one keycap cracked"]
        let denied = try await buyer.send("POST", "/orders/\(orderID)/refund", json: refundBody)
        #expect(denied.status == 403 && denied.code == "forbidden", "\(denied)")
        let refunded = try await admin.send("POST", "/orders/\(orderID)/refund", json: refundBody,
                                            headers: ["Idempotency-Key": "refund-\(orderID)"])
        #expect(refunded.status == 200 && refunded["status"] as? String == "partially_refunded", "\(refunded)")

        // The access token expires: 401 access_token_expired with RFC 6750's challenge, refresh, retry.
        let expiry = buyer.tokens.accessExpiresAt
        try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow) + 1.1))
        let expired = try await buyer.send("GET", "/me", refreshing: false)
        #expect(expired.status == 401 && expired.code == "access_token_expired", "\(expired)")
        #expect(expired.headers["www-authenticate"]?.hasPrefix(#"Bearer error="invalid_token""#) == true, "\(expired.headers)")
        let oldRefresh = try await buyer.refresh()
        // (Refreshing again if the new token, too, outlived its five seconds on a loaded machine.)
        #expect(try await buyer.send("GET", "/me").status == 200)

        // The old refresh token comes back: RFC 6749's invalid_grant, and the whole family is revoked.
        let reused = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": oldRefresh])
        #expect(reused.status == 400 && reused.code == "refresh_token_expired" && reused["error"] as? String == "invalid_grant", "\(reused)")
        let revoked = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": buyer.tokens.refresh])
        #expect(revoked.status == 400 && revoked.code == "refresh_token_expired", "\(revoked)")
    }

    @Test("200 buyers racing for the last 50 units get exactly 50 orders")
    func raceForStock() async throws {
        let client = try HTTPTestServer.client()
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        let created = try await seller.send("POST", "/products", json: Self.product(title: "Race switches", price: 9_000, stock: 50,
                                                                                 category: "switch"))
        try #require(created.status == 201, "\(created)")
        let productID = try #require(created.int("id"))
        let run = UUID().uuidString.prefix(8).lowercased()

        let buyers = try await withThrowingTaskGroup(of: HTTPSession.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let email = "racer\(index).\(run)@example.com"
                    let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": "racer\(index)"])
                    try #require(signUp.status == 201, "\(signUp)")
                    return try await client.logIn(email, "keycat123")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let answers = try await withThrowingTaskGroup(of: HTTPAnswer.self) { group in
            for buyer in buyers {
                group.addTask { try await buyer.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let orders = answers.filter { $0.status == 201 }
        #expect(orders.count == 50)
        #expect(Set(orders.compactMap { $0.int("id") }).count == 50)
        #expect(answers.allSatisfy { $0.status == 201 || ($0.status == 409 && $0.code == "out_of_stock") },
                "\(answers.first { $0.status != 201 && $0.code != "out_of_stock" }.map(\.description) ?? "")")
        let product = try await client.send("GET", "/products/\(productID)")
        #expect(product["stock"] as? Int == 0, "\(product)")
    }

    static func product(title: String, price: Int, stock: Int, category: String = "keycap") -> [String: Any] {
        ["kind": "commercial", "category": category, "title": title, "content": "PBT 더블샷, 체리 프로파일.",
         "regular_price": price + 5_000, "price": price, "delivery_fee": 3_000, "delivery_schedule": "next_day", "stock": stock]
    }
}
