import Foundation
import KeyCat
import KeyCatAPI
import KeyCatPGSimulator
import Testing

/// A request's own rules are checked before anything is looked up: a bad body is a 400 naming
/// the field whether or not the thing it names exists, as openapi.yaml says.
@Suite("A request's own rules come before lookups")
struct RequestRuleTests {
    @Test("a bad reason or amount is 400 even for an order that does not exist")
    func reasonsBeforeOrders() async throws {
        try await APITestServer.with { server in
            let admin = try await server.signedIn(.admin, "operator")
            let cancel = try await server.send("POST", "/orders/999/cancel", json: ["reason": " \n "], token: admin.token)
            #expect(cancel.status == 400 && cancel["field"] as? String == "reason", "\(cancel)")
            let refund = try await server.send("POST", "/orders/999/refund", json: ["reason": "damaged", "amount": 0], token: admin.token)
            #expect(refund.status == 400 && refund["field"] as? String == "amount", "\(refund)")
            let long = try await server.send("POST", "/orders/999/refund", json: ["reason": String(repeating: "x", count: 201)],
                                             token: admin.token)
            #expect(long.status == 400 && long["field"] as? String == "reason", "\(long)")
            let missing = try await server.send("POST", "/orders/999/refund", json: ["reason": "damaged"], token: admin.token)
            #expect(missing.status == 404, "\(missing)")
        }
    }

    @Test("an invisible format character in an email, a nick, a title, a review or an address is 400 naming the field and the character")
    func formatCharacters() async throws {
        try await APITestServer.with { server in
            let override = "\u{202E}"
            let signUp = try await server.send("POST", "/users", json: [
                "email": "kim\(override)@example.com", "password": "keycat123", "nick": "민아"])
            #expect(signUp.status == 400 && signUp.field == "email" && signUp["character"] as? String == "U+202E", "\(signUp)")
            let nick = try await server.send("POST", "/users", json: ["email": "kim@example.com", "password": "keycat123", "nick": "민\u{200B}아"])
            #expect(nick.status == 400 && nick.field == "nick", "\(nick)")
            let seller = try await server.signedIn(.seller, "seller")
            var product = APITestServer.productJSON()
            product["title"] = "Felt F99\u{FEFF} 키보드"
            let listed = try await server.send("POST", "/products", json: product, token: seller.token)
            #expect(listed.status == 400 && listed.field == "title" && listed["character"] as? String == "U+FEFF", "\(listed)")
            let productID = try await server.product()
            let buyer = try await server.signedIn(.buyer, "buyer")
            let review = try await server.send("POST", "/products/\(productID)/reviews",
                                               json: ["rating": 5, "content": "아주 좋은 키보드\(override)입니다"], token: buyer.token)
            #expect(review.status == 400 && review.field == "content", "\(review)")
            let address = try await server.send("POST", "/me/addresses", json: [
                "recipient": "김\u{2066}민아", "phone": "010-1234-5678", "postcode": "06236", "road_address": "서울특별시 강남구 테헤란로 152",
            ], token: buyer.token)
            #expect(address.status == 400 && address.field == "recipient" && address["character"] as? String == "U+2066", "\(address)")
        }
    }

    @Test("an Idempotency-Key is 1–255 bytes, checked once: 100 four-byte characters are 400 naming the header and take no stock")
    func idempotencyKeyBytes() async throws {
        try await APITestServer.with { server in
            let buyer = try await server.signedIn(.buyer, "buyer")
            let productID = try await server.product(stock: 10)
            let items = ["items": [["product_id": productID, "quantity": 1]]]
            // 100 characters, 400 bytes: a rule by characters would pass it and the store's refuse it.
            for key in [String(repeating: "🎹", count: 100), String(repeating: "k", count: 256), ""] {
                let refused = try await server.send("POST", "/checkout", json: items, token: buyer.token, headers: ["Idempotency-Key": key])
                #expect(refused.status == 400 && refused.field == "Idempotency-Key", "\(key.utf8.count) bytes: \(refused)")
            }
            let detail = try await server.send("GET", "/products/\(productID)")
            #expect(detail["stock"] as? Int == 10, "a refused key took no stock: \(detail)")
            // 63 four-byte characters and three more bytes: 255 bytes, the longest key there is.
            let longest = String(repeating: "🎹", count: 63) + "abc"
            let first = try await server.send("POST", "/checkout", json: items, token: buyer.token, headers: ["Idempotency-Key": longest])
            let again = try await server.send("POST", "/checkout", json: items, token: buyer.token, headers: ["Idempotency-Key": longest])
            #expect(first.status == 201 && again.int("id") == first.int("id"), "\(first) then \(again)")
        }
    }

    @Test("a confirm whose imp_uid is not shaped as the PG's is 400 naming it, for any order; a PG-issued one goes through")
    func impUIDs() async throws {
        try await APITestServer.with { server in
            let buyer = try await server.signedIn(.buyer, "buyer")
            for impUID in ["imp_123/456", "../payments/imp_1", "imp_", "imp_" + String(repeating: "9", count: 33), "imp_12 34"] {
                for target in ["/orders/999/confirm", "/orders/1/confirm"] {
                    let answer = try await server.send("POST", target, json: ["imp_uid": impUID], token: buyer.token)
                    #expect(answer.status == 400 && answer.field == "imp_uid", "\(impUID) at \(target): \(answer)")
                }
            }
            let productID = try await server.product()
            let order = try await server.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]], token: buyer.token)
            let paid = try server.simulator.pay(merchantUID: try #require(order["merchant_uid"] as? String), cardNumber: PGTestCard.success.number)
            #expect(PaymentRules.isImpUID(paid.impUID), "the simulator issues \(paid.impUID)")
            let confirmed = try await server.send("POST", "/orders/\(try #require(order.int("id")))/confirm", json: ["imp_uid": paid.impUID],
                                                  token: buyer.token)
            #expect(confirmed.status == 200 && confirmed["status"] as? String == "paid", "\(confirmed)")
        }
    }

    @Test("an id of zero or less in a body is 400 naming it, not a missing thing")
    func bodyIDs() async throws {
        try await APITestServer.with { server in
            let admin = try await server.signedIn(.admin, "operator")
            let buyer = try await server.signedIn(.buyer, "buyer")
            for id in [0, -5] {
                let add = try await server.send("POST", "/cart/items", json: ["product_id": id], token: buyer.token)
                #expect(add.status == 400 && add["field"] as? String == "product_id", "\(add)")
                let checkout = try await server.send("POST", "/checkout", json: ["items": [["product_id": id, "quantity": 1]]],
                                                     token: buyer.token)
                #expect(checkout.status == 400 && checkout["field"] as? String == "items.0.product_id", "\(checkout)")
                var product = APITestServer.productJSON()
                product["seller_id"] = id
                let created = try await server.send("POST", "/products", json: product, token: admin.token)
                #expect(created.status == 400 && created["field"] as? String == "seller_id", "\(created)")
            }
            let unknown = try await server.send("POST", "/cart/items", json: ["product_id": 987_654], token: buyer.token)
            #expect(unknown.status == 404, "\(unknown)")
        }
    }

    @Test("an image upload without a body, or not an image, is 400 before the listing is looked up")
    func imagesBeforeListings() async throws {
        try await APITestServer.with { server in
            let admin = try await server.signedIn(.admin, "operator")
            for body in [[], Array("{\"not\": \"an image\"}".utf8)] {
                let response = await server.api.respond(to: APIRequest(
                    method: "POST", target: "/products/999/images",
                    headers: ["Content-Type": "image/png", "Authorization": "Bearer \(admin.token)"], body: body))
                #expect(response.status == 400, "\(String(decoding: response.body, as: UTF8.self))")
            }
        }
    }

    @Test("a listing change with a field out of its range is 400 even for a listing that does not exist")
    func changesBeforeListings() async throws {
        try await APITestServer.with { server in
            let admin = try await server.signedIn(.admin, "operator")
            // A fee above the shop's bound (₩50,000 by default) is refused as one out of range is.
            for (field, value) in [("stock", -1 as Any), ("delivery_fee", 1_000_001), ("delivery_fee", 50_001), ("price", 0), ("coupon_price", -1),
                                   ("regular_price", 0), ("title", "  "), ("content", String(repeating: "x", count: 2_001))] {
                let changed = try await server.send("PATCH", "/products/999", json: ["version": 1, field: value], token: admin.token)
                #expect(changed.status == 400 && changed["field"] as? String == field, "\(field): \(changed)")
            }
            let fine = try await server.send("PATCH", "/products/999", json: ["version": 1, "stock": 3], token: admin.token)
            #expect(fine.status == 404, "\(fine)")
        }
    }

    @Test("null for an optional field is the same as leaving it out")
    func nullIsLeftOut() async throws {
        try await APITestServer.with { server in
            let buyer = try await server.signedIn(.buyer, "buyer")
            let profile = try await server.send("PATCH", "/me", json: ["nick": NSNull(), "phone": "010-1234-5678"], token: buyer.token)
            #expect(profile.status == 200 && profile["nick"] as? String == "buyer", "\(profile)")
            let empty = try await server.send("PATCH", "/me", token: buyer.token)
            #expect(empty.status == 200, "\(empty)")
        }
    }
}
