import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator
import Testing

/// The example servers over real HTTP: ``Journey`` (the same body ``JourneyTests`` runs in
/// process) against each store's server, with the PG simulator's payment window as the buyer's
/// card form and access tokens that live a few seconds (`KEYCAT_ACCESS_TOKEN_SECONDS`), so expiry
/// is real; and a race for the last units of stock.
@Suite("A journey over real HTTP", .serialized, .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HTTPJourneyTests {
    @Test("sign up, browse, bookmark, cart, checkout, pay, confirm, webhooks, review, refund, expiry, reuse",
          arguments: HTTPTestServerInstance.configured)
    func journey(_ server: HTTPTestServerInstance) async throws {
        try await Journey.run(in: NetworkJourneyShop(server))
    }

    @Test("200 buyers racing for the last 50 units: half the units held, the rest sold on payment, exactly 50 paid")
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
        let checkouts = try await withThrowingTaskGroup(of: (HTTPSession, HTTPAnswer).self) { group in
            for buyer in buyers {
                group.addTask { (buyer, try await buyer.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]])) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let answers = checkouts.map(\.1)
        // Every checkout makes an order; only half the 50 units may be held unpaid, so 25 orders
        // hold theirs and the others' lines are sold on payment.
        #expect(answers.allSatisfy { $0.status == 201 }, "\(answers.first { $0.status != 201 }.map(\.description) ?? "")")
        let holding = answers.filter { ($0["lines"] as? [[String: Any]])?.first?["stock_taken"] as? Bool == true }
        #expect(holding.count == 25 && Set(answers.compactMap { $0.int("id") }).count == 200)
        #expect(try await client.send("GET", "/products/\(productID)")["stock"] as? Int == 25)
        // All pay at once: exactly 50 orders are paid, the others find the units sold and their
        // payments are cancelled.
        let confirmed = try await withThrowingTaskGroup(of: HTTPAnswer.self) { group in
            for (buyer, order) in checkouts {
                group.addTask {
                    let merchantUID = try #require(order["merchant_uid"] as? String)
                    let paid = try await client.send("POST", "/pg/payments/\(merchantUID)", json: ["card_number": "4242 4242 4242 4242"])
                    let impUID = try #require(paid["imp_uid"] as? String, "\(paid)")
                    return try await buyer.send("POST", "/orders/\(try #require(order.int("id")))/confirm", json: ["imp_uid": impUID])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(confirmed.filter { $0.status == 200 }.count == 50)
        #expect(confirmed.allSatisfy { $0.status == 200 || ($0.status == 409 && $0.code == "out_of_stock") },
                "\(confirmed.first { $0.status != 200 && $0.code != "out_of_stock" }.map(\.description) ?? "")")
        let product = try await client.send("GET", "/products/\(productID)")
        #expect(product["stock"] as? Int == 0, "\(product)")
    }

    static func product(title: String, price: Int, stock: Int, category: String = "keycap") -> [String: Any] {
        ["kind": "commercial", "category": category, "title": title, "content": "PBT 더블샷, 체리 프로파일.",
         "regular_price": price + 5_000, "price": price, "delivery_fee": 3_000, "delivery_schedule": "next_day", "stock": stock]
    }
}
