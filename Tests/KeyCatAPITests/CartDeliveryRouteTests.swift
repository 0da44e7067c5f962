import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// `GET /cart` charges delivery as `POST /checkout` does (issue #41, item 9).
@Suite("The cart's delivery fees over the API")
struct CartDeliveryRouteTests {
    @Test("one seller's two products: GET /cart shows the delivery total and amount of the order POST /checkout makes",
          arguments: TestStore.allCases)
    func cartMatchesCheckout(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "bundler")
            var ids: [Int64] = []
            for (title, price, fee) in [("Board", 70_000, 3_000), ("Switches", 2_000, 2_500)] {
                var json = APITestServer.productJSON(price: price, title: title)
                json["delivery_fee"] = fee
                let created = try await server.send("POST", "/products", json: json, token: seller.token)
                try #require(created.status == 201, "\(created)")
                ids.append(try #require(created.int("id")))
            }
            let buyer = try await server.signedIn(.buyer, "buyer")
            for id in ids { _ = try await server.send("POST", "/cart/items", json: ["product_id": id], token: buyer.token) }

            let cart = try await server.send("GET", "/cart", token: buyer.token)
            #expect(cart.int("delivery_total") == 3_000 && cart.int("total") == 75_000, "\(cart)")
            let parcels = try #require(cart["parcels"] as? [[String: Any]], "\(cart)")
            #expect(parcels.count == 1 && (parcels[0]["seller_id"] as? NSNumber)?.int64Value == seller.id
                    && (parcels[0]["delivery_fee"] as? NSNumber)?.int64Value == 3_000
                    && (parcels[0]["product_ids"] as? [NSNumber])?.map(\.int64Value) == ids, "\(parcels)")
            let lines = try #require(cart["lines"] as? [[String: Any]])
            #expect(lines.compactMap { ($0["seller_id"] as? NSNumber)?.int64Value } == [seller.id, seller.id], "\(lines)")

            let order = try await server.send("POST", "/checkout", json: [:], token: buyer.token)
            try #require(order.status == 201, "\(order)")
            #expect(order.int("delivery_total") == cart.int("delivery_total") && order.int("amount") == cart.int("total"), "\(order)")
        }
    }
}
