import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The routes the journey does not take: seller applications, profiles and passwords, listing
/// changes, follows, cart edits, reviews' deletion, shipping and delivery.
@Suite("Resources through the HTTP API")
struct ResourceRouteTests {
    @Test("a buyer applies to sell, an operator approves, and after a refresh the new seller lists a product", arguments: TestStore.allCases)
    func sellerApplication(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            try await server.keycat.loadBusinessRegistry(
                [BusinessRegistryEntry(number: try BusinessRegistrationNumber("220-81-62517"),
                                       status: BusinessStatus(taxServiceCode: "01"))],
                by: .operatorConsole("tests"))
            _ = try await server.send("POST", "/users", json: ["email": "kim@example.com", "password": "keycat2026", "nick": "kim"])
            let session = try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "keycat2026"])
            let token = try #require(session["access_token"] as? String)
            let applied = try await server.send("POST", "/seller-applications", json: [
                "business_number": "2208162517", "representative_name": "김키캣", "opening_date": "2021-04-01",
            ], token: token)
            #expect(applied.status == 201 && applied["status"] as? String == "pending", "\(applied)")
            #expect(applied["registry_status"] as? String == "active" && applied["opening_date"] as? String == "2021-04-01")
            let applicationID = try #require(applied.int("id"))
            #expect(try await server.send("GET", "/seller-applications/mine", token: token).items.count == 1)
            #expect(try await server.send("GET", "/seller-applications/\(applicationID)", token: token).status == 200)
            let listedTooEarly = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: token)
            #expect(listedTooEarly.status == 403, "\(listedTooEarly)")

            let admin = try await server.signedIn(.admin, "operator")
            let pending = try await server.send("GET", "/seller-applications?status=pending", token: admin.token)
            #expect(pending.items.count == 1 && pending["next_cursor"] is NSNull, "\(pending)")
            let approved = try await server.send("POST", "/seller-applications/\(applicationID)/approve", token: admin.token)
            #expect(approved.status == 200 && approved["status"] as? String == "approved", "\(approved)")
            let again = try await server.send("POST", "/seller-applications/\(applicationID)/reject", json: ["reason": "late"],
                                              token: admin.token)
            #expect(again.status == 409, "\(again)")

            server.clock.advance(by: 60)
            let refreshed = try await server.send("POST", "/sessions/refresh",
                                                  json: ["refresh_token": try #require(session["refresh_token"] as? String)])
            #expect(refreshed["role"] as? String == "seller")
            let listed = try await server.send("POST", "/products", json: APITestServer.productJSON(),
                                               token: try #require(refreshed["access_token"] as? String))
            #expect(listed.status == 201, "\(listed)")
        }
    }

    @Test("profiles: read, change, clear with null, change the password, withdraw", arguments: TestStore.allCases)
    func profile(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let user = try await server.signedIn(.buyer, "mina")
            let changed = try await server.send("PATCH", "/me", json: ["nick": "mina2", "phone": "010-1234-5678"], token: user.token)
            #expect(changed.status == 200 && changed["nick"] as? String == "mina2", "\(changed)")
            #expect(changed["phone"] as? String != nil)
            let cleared = try await server.send("PATCH", "/me", json: ["phone": NSNull()], token: user.token)
            #expect(cleared.status == 200 && cleared["phone"] == nil, "\(cleared)")
            let other = try await server.signedIn(.buyer, "other")
            let theirs = try await server.send("GET", "/users/\(user.id)", token: other.token)
            #expect(theirs.status == 403, "\(theirs)")

            let wrong = try await server.send("PUT", "/me/password", json: ["current_password": "nope-nope", "new_password": "keycat456"],
                                              token: user.token)
            #expect(wrong.status == 401, "\(wrong)")
            let password = try await server.send("PUT", "/me/password",
                                                 json: ["current_password": "keycat123", "new_password": "keycat456"], token: user.token)
            #expect(password.status == 200 && password["access_token"] is String, "\(password)")
            // The access token from before the change stops working at once (401 access_token_expired:
            // refresh, which then fails).
            let stale = try await server.send("GET", "/me", token: user.token)
            #expect(stale.status == 401 && stale.code == "access_token_expired", "\(stale)")
            let fresh = try #require(password["access_token"] as? String)
            let logIn = try await server.send("POST", "/sessions", json: ["email": "mina@example.com", "password": "keycat456"])
            #expect(logIn.status == 200, "\(logIn)")

            let admin = try await server.signedIn(.admin, "operator")
            let users = try await server.send("GET", "/users?limit=2", token: admin.token)
            #expect(users.items.count == 2 && users["next_cursor"] is String, "\(users)")

            let wrongPassword = try await server.send("POST", "/me/withdrawal", json: ["password": "keycat123"], token: fresh)
            #expect(wrongPassword.status == 401 && wrongPassword.code == "invalid_credentials", "\(wrongPassword)")
            #expect(try await server.send("POST", "/me/withdrawal", json: ["password": "keycat456"], token: fresh).status == 204)
            let withdrawn = try await server.send("GET", "/me", token: fresh)
            #expect(withdrawn.status == 401 && withdrawn.code == "access_token_expired", "\(withdrawn)")
            let gone = try await server.send("POST", "/sessions", json: ["email": "mina@example.com", "password": "keycat456"])
            #expect(gone.status == 401, "\(gone)")
        }
    }

    @Test("a listing changes with the version it read, a stale version is 409, another seller's is 403, deletion is 404 after", arguments: TestStore.allCases)
    func listingChanges(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "maker")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: seller.token)
            let id = try #require(created.int("id"))
            let version = try #require(created.int("version"))
            let updated = try await server.send("PATCH", "/products/\(id)", json: ["version": version, "price": 45_000, "stock": 3],
                                                token: seller.token)
            #expect(updated.status == 200 && updated["price"] as? Int == 45_000 && updated["stock"] as? Int == 3, "\(updated)")
            let stale = try await server.send("PATCH", "/products/\(id)", json: ["version": version, "title": "again"], token: seller.token)
            #expect(stale.status == 409 && stale.code == "version_conflict", "\(stale)")
            let rival = try await server.signedIn(.seller, "rival")
            let notTheirs = try await server.send("DELETE", "/products/\(id)", token: rival.token)
            #expect(notTheirs.status == 403, "\(notTheirs)")
            let badPrice = try await server.send("PATCH", "/products/\(id)", json: ["version": version + 1, "price": 0], token: seller.token)
            #expect(badPrice.status == 400 && badPrice.field == "price", "\(badPrice)")
            #expect(try await server.send("DELETE", "/products/\(id)", token: seller.token).status == 204)
            #expect(try await server.send("GET", "/products/\(id)").status == 404)
        }
    }

    @Test("follows, cart edits, a review's deletion, shipping and delivery", arguments: TestStore.allCases)
    func socialCartAndShipping(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let productID = try await server.product(price: 30_000, seller: "maker")
            let buyer = try await server.signedIn(.buyer, "buyer")
            let maker = try await #require(server.keycat.accounts.listUsers(by: .operatorConsole("t")).items.first { $0.nick == "maker" })
            for _ in 0..<2 {
                #expect(try await server.send("PUT", "/users/\(maker.id)/follow", token: buyer.token)["following"] as? Bool == true)
            }
            #expect(try await server.send("GET", "/users/\(maker.id)/follow", token: buyer.token)["following"] as? Bool == true)
            #expect(try await server.send("GET", "/users/\(maker.id)/follow-counts")["followers"] as? Int == 1)
            #expect(try await server.send("GET", "/users/\(maker.id)/followers").items.first?["nick"] as? String == "buyer")
            #expect(try await server.send("GET", "/users/\(buyer.id)/following").items.count == 1)
            let selfFollow = try await server.send("PUT", "/users/\(buyer.id)/follow", token: buyer.token)
            #expect(selfFollow.status == 403, "\(selfFollow)")
            #expect(try await server.send("DELETE", "/users/\(maker.id)/follow", token: buyer.token)["following"] as? Bool == false)

            _ = try await server.send("POST", "/cart/items", json: ["product_id": productID], token: buyer.token)
            let set = try await server.send("PUT", "/cart/items/\(productID)", json: ["quantity": 3], token: buyer.token)
            #expect((set["lines"] as? [[String: Any]])?.first?["quantity"] as? Int == 3, "\(set)")
            let removed = try await server.send("DELETE", "/cart/items/\(productID)", token: buyer.token)
            #expect((removed["lines"] as? [[String: Any]])?.isEmpty == true, "\(removed)")
            _ = try await server.send("POST", "/cart/items", json: ["product_id": productID, "quantity": 1], token: buyer.token)
            #expect(try await server.send("DELETE", "/cart", token: buyer.token).status == 204)
            #expect(try await server.send("GET", "/cart", token: buyer.token)["total"] as? Int == 0)

            let order = try await server.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                              token: buyer.token)
            let orderID = try #require(order.int("id"))
            let payment = try server.simulator.pay(merchantUID: try #require(order["merchant_uid"] as? String),
                                                   cardNumber: "4242424242424242")
            _ = try await server.send("POST", "/orders/\(orderID)/confirm", json: ["imp_uid": payment.impUID], token: buyer.token)
            let admin = try await server.signedIn(.admin, "operator")
            let shipped = try await server.send("POST", "/orders/\(orderID)/ship", json: ["carrier": "CJ", "tracking_number": "123456789012"],
                                                token: admin.token)
            #expect(shipped["status"] as? String == "shipped" && shipped["tracking_number"] as? String == "123456789012", "\(shipped)")
            let delivered = try await server.send("POST", "/orders/\(orderID)/deliver", token: admin.token)
            #expect(delivered["status"] as? String == "delivered", "\(delivered)")
            for parcel in (delivered["shipments"] as? [[String: Any]] ?? []).compactMap({ ($0["id"] as? NSNumber)?.int64Value }) {
                let received = try await server.send("POST", "/shipments/\(parcel)/confirm-receipt", token: buyer.token)
                #expect(received["confirmed_at"] != nil, "\(received)")
            }
            let review = try await server.send("POST", "/products/\(productID)/reviews",
                                               json: ["rating": 4, "content": "좋아요, 배송도 빨라요."], token: buyer.token)
            let reviewID = try #require(review.int("id"))
            #expect(try await server.send("GET", "/reviews/\(reviewID)")["rating"] as? Int == 4)
            #expect(try await server.send("GET", "/users/\(buyer.id)/reviews").items.count == 1)
            #expect(try await server.send("DELETE", "/reviews/\(reviewID)", token: buyer.token).status == 204)
            #expect(try await server.send("GET", "/reviews/\(reviewID)").status == 404)

            let all = try await server.send("GET", "/orders?buyer_id=\(buyer.id)", token: admin.token)
            #expect(all.items.count == 1, "\(all)")

            // By its seller and the instant it was placed, in Korean time with an unescaped +
            // (a space once the query is decoded) or in UTC.
            let placedText = try #require(all.items.first?["created_at"] as? String, "\(all)")
            let placed = try Date(placedText, strategy: .iso8601)
            let seller = try #require((all.items.first?["lines"] as? [[String: Any]])?.first?["seller_id"] as? NSNumber)
            let kst = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 9 * 3600)!)
            let window = "placed_from=\(placed.formatted(kst))&placed_before=\(placed.addingTimeInterval(1).formatted(.iso8601))"
            let bySeller = try await server.send("GET", "/orders?seller_id=\(seller)&\(window)", token: admin.token)
            #expect(bySeller.status == 200 && bySeller.items.map { ($0["id"] as? NSNumber)?.int64Value } == [orderID], "\(window) \(bySeller)")
            let later = "placed_from=\(placed.addingTimeInterval(1).formatted(.iso8601))"
            #expect(try await server.send("GET", "/orders?seller_id=\(seller)&\(later)", token: admin.token).items.isEmpty)
            #expect(try await server.send("GET", "/orders?seller_id=999999", token: admin.token).items.isEmpty)
        }
    }
}
