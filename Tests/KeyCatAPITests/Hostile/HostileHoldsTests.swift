import Foundation
import Testing

/// A hostile client against the example server over real HTTP, with its default stock holds (3
/// open orders; 10 units of a product a buyer, half a product's unsold units all buyers, 2 left on
/// the shelf, past which a line is sold on payment; 5 checkouts at once then one every 6 s): one
/// buyer can no longer hold a product's stock without paying (issue: each `POST /checkout` took
/// the stock at once, with nothing limiting a buyer's unpaid orders or units).
@Suite("A hostile client: holding stock without paying", .serialized,
       .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HostileHoldsTests {
    /// A fresh listing of the test seller's with `stock` units.
    static func listing(_ client: HTTPClient, stock: Int) async throws -> Int64 {
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        let created = try await seller.send("POST", "/products", json: HTTPJourneyTests.product(
            title: "Hoarded switches \(UUID().uuidString.prefix(6))", price: 5_000, stock: stock, category: "switch"))
        try #require(created.status == 201, "\(created)")
        return try #require(created.int("id"))
    }

    @Test("one buyer cannot drain a product: units past 10 are sold on payment, a fourth open order is refused, and the stock stays")
    func drain() async throws {
        let client = try HTTPTestServer.client()
        let product = try await Self.listing(client, stock: 50)
        let hoarder = try await HostileAccessTests.newBuyer(client, "hoarder")
        let first = try await hoarder.send("POST", "/checkout", json: ["items": [["product_id": product, "quantity": 10]]])
        #expect(first.status == 201 && (first["lines"] as? [[String: Any]])?.first?["stock_taken"] as? Bool == true, "\(first)")
        // An eleventh unit holds nothing: it is sold on payment, if any is left then.
        let more = try await hoarder.send("POST", "/checkout", json: ["items": [["product_id": product, "quantity": 1]]])
        #expect(more.status == 201 && (more["lines"] as? [[String: Any]])?.first?["stock_taken"] as? Bool == false, "\(more)")
        let other = try await Self.listing(client, stock: 5)
        let third = try await hoarder.send("POST", "/checkout", json: ["items": [["product_id": other, "quantity": 1]]])
        #expect(third.status == 201, "\(third)")
        let fourth = try await Self.listing(client, stock: 5)
        let refused = try await hoarder.send("POST", "/checkout", json: ["items": [["product_id": fourth, "quantity": 1]]])
        #expect(refused.status == 409 && refused.code == "reservation_limit", "\(refused)")
        let shown = try await client.send("GET", "/products/\(product)")
        #expect(shown["stock"] as? Int == 40, "\(shown)")
    }

    @Test("checkouts past the rate are 429 with Retry-After, even for a buyer who pays for every order")
    func rate() async throws {
        let client = try HTTPTestServer.client()
        let product = try await Self.listing(client, stock: 50)
        let buyer = try await HostileAccessTests.newBuyer(client, "rusher")
        // The budget is 5 at once, then one every 6 s: on a loaded machine paying for each order
        // can take long enough to earn more, so the buyer goes on until refused, and may have
        // had no more than the budget earned by then.
        let started = Date()
        var answers: [HTTPAnswer] = []
        for _ in 0..<20 {
            let order = try await buyer.send("POST", "/checkout", json: ["items": [["product_id": product, "quantity": 1]]])
            answers.append(order)
            guard order.status == 201, let id = order.int("id"), let merchantUID = order["merchant_uid"] as? String else { break }
            // Pay, so the open-order cap is not what stops the buyer.
            let paid = try await client.send("POST", "/pg/payments/\(merchantUID)", json: ["card_number": "4242 4242 4242 4242"])
            let impUID = try #require(paid["imp_uid"] as? String, "\(paid)")
            let confirmed = try await buyer.send("POST", "/orders/\(id)/confirm", json: ["imp_uid": impUID])
            #expect(confirmed.status == 200, "\(confirmed)")
        }
        let made = answers.filter { $0.status == 201 }.count
        let earned = 5 + Int(Date().timeIntervalSince(started) / 6) + 1
        #expect(made >= 5 && made <= earned, "\(answers.map(\.status)), \(earned) earned")
        let limited = try #require(answers.last)
        #expect(limited.status == 429 && limited.code == "rate_limited" && limited.headers["retry-after"] != nil, "\(limited)")
    }

    @Test("a seller cannot check out their own listing")
    func ownListing() async throws {
        let client = try HTTPTestServer.client()
        let product = try await Self.listing(client, stock: 5)
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        let answer = try await seller.send("POST", "/checkout", json: ["items": [["product_id": product, "quantity": 1]]])
        #expect(answer.status == 403 && answer.code == "forbidden", "\(answer)")
    }
}
