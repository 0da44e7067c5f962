import Foundation
import KeyCat
import KeyCatAPI
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// What a journey needs of the shop it runs in beyond requests: the people only an operator can
/// make, the buyer's card at the PG, and the passing of time. One conformance drives KeyCatAPI in
/// process (a test clock, the simulator's own window), the other an example server over real
/// HTTP (its `/pg/` window, real seconds).
protocol JourneyShop: Sendable {
    /// Requests to the API, in process or over HTTP.
    var client: HTTPClient { get }
    /// A verified seller of the journey's own, made by the operators' console and logged in.
    func newSeller() async throws -> HTTPSession
    /// The shop's operator (an admin), logged in.
    func operatorSession() async throws -> HTTPSession
    /// The buyer pays `merchantUID` with `card` in the PG's payment window: the payment's status
    /// (`paid`, `failed`) and its `imp_uid`.
    func pay(merchantUID: String, card: PGTestCard) async throws -> (status: String, impUID: String?)
    /// The secret the PG signs its webhooks with, and the time by the shop's clock.
    func webhookSecret() async throws -> String
    func now() -> Date
    /// Returns once an access token that expires at `expiry` has expired by the shop's clock.
    func outlive(_ expiry: Date) async throws
}

/// One buyer's whole day in the shop, written once and run over every transport and store —
/// in process on SQLite and Postgres (``JourneyTests``), over real HTTP against the example
/// servers `scripts/test` starts (``HTTPJourneyTests``): a seller lists keycaps; a buyer signs
/// up, browses with cursors, bookmarks, fills a cart, checks out with an Idempotency-Key and a
/// replay, pays after a declined card, confirms; the PG's signed webhook arrives twice and a
/// forged one is refused; a review waits for delivery; the operator ships, delivers and refunds
/// part; the access token expires and is refreshed; a reused refresh token revokes its family.
enum Journey {
    static func run(in shop: some JourneyShop) async throws {
        let client = shop.client
        let seller = try await shop.newSeller()
        let run = UUID().uuidString.prefix(8).lowercased()
        var ids: [Int64] = []
        for index in 0..<5 {
            let created = try await seller.send("POST", "/products", json: product(title: "Journey board \(index)",
                                                                                   price: 10_000 * (index + 1), stock: 10))
            try #require(created.status == 201, "\(created)")
            ids.append(try #require(created.int("id")))
        }

        // Sign up and log in.
        let email = "mina.\(run)@example.com"
        let signUp = try await client.send("POST", "/users", json: [
            "email": email, "password": "keycat123", "nick": "mina", "birthday": "1999-04-01",
        ])
        #expect(signUp.status == 201 && signUp["role"] as? String == "buyer", "\(signUp)")
        #expect(signUp["email"] as? String == email && signUp["birthday"] as? String == "1999-04-01", "\(signUp)")
        #expect(signUp.object["password"] == nil && signUp.object["password_hash"] == nil)
        let logIn = try await client.send("POST", "/sessions", json: ["email": email, "password": "keycat123"])
        #expect(logIn.status == 200 && logIn["token_type"] as? String == "Bearer", "\(logIn)")
        let buyer = try HTTPSession(client: client, pair: logIn)
        let me = try await buyer.send("GET", "/me")
        #expect(me.status == 200 && me["nick"] as? String == "mina", "\(me)")

        // Browse the seller's boards cheapest first, two at a time, following the cursor to the end.
        let list = "/products?sort=price_asc&limit=2&seller_id=\(seller.userID)"
        var seen: [Int64] = []
        var target = list
        for _ in 0..<10 {
            let page = try await client.send("GET", target)
            try #require(page.status == 200, "\(page)")
            seen += page.items.compactMap { ($0["id"] as? NSNumber)?.int64Value }
            #expect(page.object.keys.contains("next_cursor"))
            guard let next = page["next_cursor"] as? String else {
                #expect(page["next_cursor"] is NSNull)
                break
            }
            target = list + "&next=\(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        }
        #expect(seen == ids)
        // The cursor is bound to its sort.
        let first = try await client.send("GET", list)
        let cursor = try #require(first["next_cursor"] as? String)
        let replayed = try await client.send("GET", "/products?sort=newest&limit=2&seller_id=\(seller.userID)&next=\(cursor)")
        #expect(replayed.status == 400 && replayed.code == "invalid_cursor", "\(replayed)")
        let filtered = try await client.send(
            "GET", "/products?min_price=20000&max_price=30000&switch_type=linear&hot_swap=true&seller_id=\(seller.userID)")
        #expect(filtered.items.count == 2, "\(filtered)")
        let detail = try await client.send("GET", "/products/\(ids[1])")
        #expect(detail["price"] as? Int == 20_000 && (detail["spec"] as? [String: Any])?["switch_type"] as? String == "linear",
                "\(detail)")

        // Bookmark, twice: still one bookmark.
        for _ in 0..<2 {
            let put = try await buyer.send("PUT", "/products/\(ids[1])/bookmark")
            #expect(put.status == 200 && put["bookmarked"] as? Bool == true, "\(put)")
        }
        let bookmarks = try await buyer.send("GET", "/me/bookmarks")
        #expect(bookmarks.items.count == 1 && bookmarks["next_cursor"] is NSNull, "\(bookmarks)")
        #expect(try await client.send("GET", "/products/\(ids[1])")["bookmark_count"] as? Int == 1)

        // Cart and checkout with an Idempotency-Key: the retry (its header in other letters) answers the same order.
        let added = try await buyer.send("POST", "/cart/items", json: ["product_id": ids[1], "quantity": 2])
        #expect(added.status == 200 && added["total"] as? Int == 2 * 20_000 + 3_000, "\(added)")
        let key = "checkout-\(run)"
        let checkout = try await buyer.send("POST", "/checkout", headers: ["Idempotency-Key": key])
        try #require(checkout.status == 201, "\(checkout)")
        #expect(checkout["status"] as? String == "awaiting_payment", "\(checkout)")
        let retry = try await buyer.send("POST", "/checkout", headers: ["idempotency-key": key])
        #expect(retry.int("id") == checkout.int("id"), "\(retry)")
        let orderID = try #require(checkout.int("id"))
        let merchantUID = try #require(checkout["merchant_uid"] as? String)
        #expect(try await client.send("GET", "/products/\(ids[1])")["stock"] as? Int == 8)

        // Pay in the PG's window: a declined card, then one that pays; confirm.
        let declined = try await shop.pay(merchantUID: merchantUID, card: .declined)
        #expect(declined.status == "failed", "\(declined)")
        let paid = try await shop.pay(merchantUID: merchantUID, card: .success)
        #expect(paid.status == "paid", "\(paid)")
        let impUID = try #require(paid.impUID)
        let confirmed = try await buyer.send("POST", "/orders/\(orderID)/confirm", json: ["imp_uid": impUID])
        #expect(confirmed.status == 200 && confirmed["status"] as? String == "paid", "\(confirmed)")

        // The PG's signed webhook arrives twice: both acknowledged, the order paid once. A forged one is refused.
        let webhook = Data(#"{"imp_uid":"\#(impUID)","merchant_uid":"\#(merchantUID)","status":"paid"}"#.utf8)
        let webhookID = "msg_\(run)"
        let secret = try await shop.webhookSecret()
        for _ in 0..<2 {
            let timestamp = Int64(shop.now().timeIntervalSince1970)
            let signature = StandardWebhookSignature.sign(id: webhookID, timestamp: timestamp, body: webhook, secret: secret)
            let delivered = try await client.send("POST", "/webhooks/pg", body: webhook, headers: [
                "Content-Type": "application/json", "webhook-id": webhookID, "webhook-timestamp": String(timestamp),
                "webhook-signature": signature,
            ])
            #expect(delivered.status == 200, "\(delivered)")
        }
        let forged = try await client.send("POST", "/webhooks/pg", body: webhook, headers: [
            "Content-Type": "application/json", "webhook-id": "msg_forged_\(run)",
            "webhook-timestamp": String(Int64(shop.now().timeIntervalSince1970)), "webhook-signature": "v1,AAAA",
        ])
        #expect(forged.status == 400, "\(forged)")
        let order = try await buyer.send("GET", "/orders/\(orderID)")
        #expect(order["status"] as? String == "paid" && order["imp_uid"] as? String == impUID, "\(order)")
        let mine = try await buyer.send("GET", "/orders?status=paid")
        #expect(mine.items.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [orderID], "\(mine)")

        // A review needs the parcel received: refused while paid, and once delivered until the
        // buyer confirms receipt (구매확정); accepted after.
        let reviewBody: [String: Any] = ["rating": 5, "content": "타건감이 훌륭합니다. 추천해요!"]
        let early = try await buyer.send("POST", "/products/\(ids[1])/reviews", json: reviewBody)
        #expect(early.status == 403 && early.code == "forbidden", "\(early)")
        let admin = try await shop.operatorSession()
        let shipped = try await admin.send("POST", "/orders/\(orderID)/ship",
                                           json: ["carrier": "CJ대한통운", "tracking_number": parcelNumber(orderID, prefix: "5532")])
        #expect(shipped.status == 200 && shipped["status"] as? String == "shipped", "\(shipped)")
        let delivered = try await admin.send("POST", "/orders/\(orderID)/deliver")
        #expect(delivered.status == 200 && delivered["status"] as? String == "delivered", "\(delivered)")
        let unconfirmed = try await buyer.send("POST", "/products/\(ids[1])/reviews", json: reviewBody)
        #expect(unconfirmed.status == 403 && unconfirmed.code == "forbidden", "\(unconfirmed)")
        let parcels = (delivered["shipments"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
        try #require(!parcels.isEmpty, "\(delivered)")
        for parcel in parcels {
            let received = try await buyer.send("POST", "/shipments/\(parcel)/confirm-receipt")
            #expect(received.status == 200 && received["confirmed_at"] != nil, "\(received)")
        }
        let review = try await buyer.send("POST", "/products/\(ids[1])/reviews", json: reviewBody)
        #expect(review.status == 201 && review["author_nick"] as? String == "mina", "\(review)")
        #expect(try await client.send("GET", "/products/\(ids[1])/reviews").items.count == 1)

        // An operator refunds part of it; the buyer may not.
        let refundBody: [String: Any] = ["amount": 10_000, "reason": "one keycap cracked"]
        let denied = try await buyer.send("POST", "/orders/\(orderID)/refund", json: refundBody)
        #expect(denied.status == 403 && denied.code == "forbidden", "\(denied)")
        let refunded = try await admin.send("POST", "/orders/\(orderID)/refund", json: refundBody,
                                            headers: ["Idempotency-Key": "refund-\(run)"])
        #expect(refunded.status == 200 && refunded["status"] as? String == "partially_refunded", "\(refunded)")
        #expect(refunded["refunded_amount"] as? Int == 10_000, "\(refunded)")
        let refunds = try await buyer.send("GET", "/orders/\(orderID)/refunds")
        #expect(refunds.items.first?["amount"] as? Int == 10_000, "\(refunds)")

        // The access token expires: 401 access_token_expired with RFC 6750's challenge, refresh, retry.
        try await shop.outlive(buyer.tokens.accessExpiresAt)
        let expired = try await buyer.send("GET", "/me", refreshing: false)
        #expect(expired.status == 401 && expired.code == "access_token_expired", "\(expired)")
        #expect(expired.headers["www-authenticate"]?.hasPrefix(#"Bearer error="invalid_token""#) == true, "\(expired.headers)")
        let oldRefresh = try await buyer.refresh()
        #expect(try await buyer.send("GET", "/me").status == 200)

        // The old refresh token comes back: RFC 6749's invalid_grant, and the whole family is revoked.
        let reused = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": oldRefresh])
        #expect(reused.status == 400 && reused.code == "refresh_token_expired" && reused["error"] as? String == "invalid_grant",
                "\(reused)")
        let revoked = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": buyer.tokens.refresh])
        #expect(revoked.status == 400 && revoked.code == "refresh_token_expired", "\(revoked)")
    }

    /// A linear, hot-swap keyboard listing.
    static func product(title: String, price: Int, stock: Int) -> [String: Any] {
        ["kind": "commercial", "category": "keyboard", "title": title, "content": "가스켓 마운트, 핫스왑 PCB.",
         "regular_price": price + 10_000, "price": price, "delivery_fee": 3_000, "delivery_schedule": "next_day", "stock": stock,
         "spec": ["switch_type": "linear", "layout": "75_percent", "pcb": "hot_swap", "connection": "multi"]]
    }
}

/// KeyCatAPI in this process over a fresh store (``APITestServer``): people made by the
/// operators' console, the simulator's window paid directly, time moved by the test clock.
struct InProcessJourneyShop: JourneyShop {
    let server: APITestServer
    var client: HTTPClient { HTTPClient(api: server.api) }

    func newSeller() async throws -> HTTPSession { try await session(.seller, "seller") }
    func operatorSession() async throws -> HTTPSession { try await session(.admin, "operator") }

    private func session(_ role: Role, _ name: String) async throws -> HTTPSession {
        let email = "\(name).\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try await server.keycat.accounts.createUser(SignUpForm(email: email, password: "keycat123", nick: name), role: role,
                                                        by: .operatorConsole("tests"))
        return try await client.logIn(email, "keycat123")
    }

    func pay(merchantUID: String, card: PGTestCard) async throws -> (status: String, impUID: String?) {
        let payment = try server.simulator.pay(merchantUID: merchantUID, cardNumber: card.number)
        return (payment.status.rawValue, payment.impUID)
    }

    func webhookSecret() async throws -> String { server.simulator.webhookSecret }
    func now() -> Date { server.clock.now() }

    func outlive(_ expiry: Date) async throws {
        server.clock.advance(by: max(0, expiry.timeIntervalSince(server.clock.now())) + 1)
    }
}

/// An example server over real HTTP (``HTTPTestServerInstance``): sellers made with the real
/// `keycat-admin` on its store, its operator account, its `/pg/` payment window, real seconds
/// (the test servers' access tokens live five).
struct NetworkJourneyShop: JourneyShop {
    let instance: HTTPTestServerInstance
    let client: HTTPClient

    init(_ instance: HTTPTestServerInstance) throws {
        self.instance = instance
        client = try instance.client()
    }

    func newSeller() async throws -> HTTPSession { try await HTTPMarketplaceTests.seller(instance, client, "journey-seller") }

    func operatorSession() async throws -> HTTPSession {
        let account = try instance.account("OPERATOR")
        return try await client.logIn(account.email, account.password)
    }

    /// Opens the window (a page naming the amount), then submits the card as its form does.
    func pay(merchantUID: String, card: PGTestCard) async throws -> (status: String, impUID: String?) {
        let window = try await client.send("GET", "/pg/payments/\(merchantUID)")
        #expect(window.status == 200 && window.text.contains(merchantUID), "\(window)")
        let form = "card_number=" + card.number.replacingOccurrences(of: " ", with: "+")
        let answer = try await client.send("POST", "/pg/payments/\(merchantUID)", body: Data(form.utf8),
                                           headers: ["Content-Type": "application/x-www-form-urlencoded"])
        try #require(answer.status == 200, "\(answer)")
        return (try #require(answer["status"] as? String, "\(answer)"), answer["imp_uid"] as? String)
    }

    func webhookSecret() async throws -> String { try await instance.simulatorWebhookSecret() }
    func now() -> Date { Date() }

    func outlive(_ expiry: Date) async throws {
        try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow) + 1.1))
    }
}
