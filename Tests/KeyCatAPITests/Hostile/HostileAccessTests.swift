import Foundation
import Testing

/// A hostile client against the example server over real HTTP: another user's objects, fields a
/// client may not set, and routes above its role (OWASP API Security Top 10, 2023: API1, API3 and
/// API5; `docs/security.md`). Each test signs up fresh buyers of its own.
@Suite("A hostile client: other users' objects, fields and functions", .serialized,
       .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HostileAccessTests {
    @Test("another buyer's order: reading, confirming, cancelling, its refunds and returns are 404 as for no order, and nothing changes")
    func anotherBuyersOrder() async throws {
        let client = try HTTPTestServer.client()
        let owner = try await Self.newBuyer(client, "owner")
        let intruder = try await Self.newBuyer(client, "intruder")
        let productID = try await Self.anyListedProduct(client)
        let checkout = try await owner.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]])
        try #require(checkout.status == 201, "\(checkout)")
        let orderID = try #require(checkout.int("id"))

        for (method, target, body) in [
            ("GET", "/orders/\(orderID)", nil),
            ("GET", "/orders/\(orderID)/refunds", nil),
            ("GET", "/orders/\(orderID)/returns", nil),
            ("POST", "/orders/\(orderID)/confirm", ["imp_uid": "imp_000000000000"] as [String: Any]?),
            ("POST", "/orders/\(orderID)/cancel", ["reason": "not mine to cancel"]),
        ] {
            let answer = try await intruder.send(method, target, json: body)
            // An order's existence does not leak: someone else's is answered as a missing one.
            #expect(answer.status == 404 && answer.code == "not_found", "\(method) \(target): \(answer)")
            #expect(answer.object["merchant_uid"] == nil && answer.object["amount"] == nil, "\(method) \(target) leaked: \(answer)")
        }
        let mine = try await intruder.send("GET", "/orders")
        #expect(mine.status == 200 && mine.items.isEmpty, "\(mine)")
        let order = try await owner.send("GET", "/orders/\(orderID)")
        #expect(order.status == 200 && order["status"] as? String == "awaiting_payment", "\(order)")
    }

    @Test("fields a client may not set are not taken: a sign-up or profile change naming a role stays a buyer")
    func massAssignment() async throws {
        let client = try HTTPTestServer.client()
        let email = "role.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: [
            "email": email, "password": "keycat123", "nick": "climber", "role": "admin", "id": 1,
        ])
        #expect(signUp.status == 201 || signUp.status == 400, "\(signUp)")
        if signUp.status == 201 { #expect(signUp["role"] as? String == "buyer", "\(signUp)") }
        let buyer = try await Self.newBuyer(client, "patcher")
        let patched = try await buyer.send("PATCH", "/me", json: ["nick": "patched", "role": "admin", "email": "root@keycat.test"])
        #expect(patched.status == 200 || patched.status == 400, "\(patched)")
        let me = try await buyer.send("GET", "/me")
        #expect(me["role"] as? String == "buyer" && (me["email"] as? String)?.hasPrefix("patcher.") == true, "\(me)")
        let users = try await buyer.send("GET", "/users")
        #expect(users.status == 403, "a buyer listed every account: \(users)")
    }

    @Test("a buyer calling operators' and sellers' routes is refused by role, and nothing changes")
    func functionLevel() async throws {
        let client = try HTTPTestServer.client()
        let buyer = try await Self.newBuyer(client, "climber")
        let productID = try await Self.anyListedProduct(client)
        let before = try await client.send("GET", "/products/\(productID)")
        let checkout = try await buyer.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]])
        try #require(checkout.status == 201, "\(checkout)")
        let orderID = try #require(checkout.int("id"))
        for (method, target, body) in [
            ("GET", "/users", nil),
            ("GET", "/seller-applications", nil),
            ("POST", "/seller-applications/1/approve", nil),
            ("POST", "/orders/\(orderID)/ship", ["carrier": "cj", "tracking_number": "123456789012"] as [String: Any]?),
            ("POST", "/orders/\(orderID)/deliver", nil),
            ("POST", "/orders/\(orderID)/refund", ["reason": "I refund myself"]),
            ("PATCH", "/products/\(productID)", ["price": 1, "version": 1]),
            ("DELETE", "/products/\(productID)", nil),
        ] {
            let answer = try await buyer.send(method, target, json: body)
            #expect(answer.status == 403 && answer.code == "forbidden", "\(method) \(target): \(answer)")
        }
        let after = try await client.send("GET", "/products/\(productID)")
        #expect(after.status == 200 && after["price"] as? Int == before["price"] as? Int, "\(after)")
        let order = try await buyer.send("GET", "/orders/\(orderID)")
        #expect(order["status"] as? String == "awaiting_payment", "\(order)")
    }

    static func newBuyer(_ client: HTTPClient, _ name: String) async throws -> HTTPSession {
        let email = "\(name).\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": name])
        try #require(signUp.status == 201, "\(signUp)")
        return try await client.logIn(email, "keycat123")
    }

    /// A fresh listing of this suite's own, so no other suite's stock is touched (the journey's
    /// race for the last 50 units counts every one).
    static func anyListedProduct(_ client: HTTPClient) async throws -> Int64 {
        try await HostileHoldsTests.listing(client, stock: 10)
    }
}
