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
