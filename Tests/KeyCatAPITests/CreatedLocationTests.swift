import Foundation
import KeyCatTestSupport
import Testing

/// A 201 says where the new resource is, and that URI answers it.
@Suite("Created resources' Location")
struct CreatedLocationTests {
    @Test("a listing's, an account's and an order's 201 carries a Location that answers them; an address has none to give", arguments: TestStore.allCases)
    func locations(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "located")
            let listing = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: seller.token)
            let listingPath = try #require(listing.response.headers["Location"])
            let listingID = try #require(listing.int("id"))
            #expect(listingPath == "/products/\(listingID)")
            #expect(try await server.send("GET", listingPath)["title"] as? String == listing["title"] as? String)

            let account = try await server.send("POST", "/users", json: ["email": "loc@example.com", "password": "keycat123", "nick": "loc"])
            let accountID = try #require(account.int("id"))
            #expect(account.response.headers["Location"] == "/users/\(accountID)")

            let buyer = try await server.signedIn(.buyer, "locbuyer")
            let address = try await server.send("POST", "/me/addresses", json: [
                "recipient": "김하늘", "phone": "010-1234-5678", "postcode": "06236", "road_address": "서울 강남구 테헤란로 123",
                "detail": "4층"], token: buyer.token)
            #expect(address.status == 201 && address.response.headers["Location"] == nil, "no GET of its own to point at")
            let order = try await server.send("POST", "/checkout", json: ["items": [["product_id": listingID, "quantity": 1]]],
                                              token: buyer.token)
            let orderPath = try #require(order.response.headers["Location"])
            let orderID = try #require(order.int("id"))
            #expect(orderPath == "/orders/\(orderID)")
            #expect(try await server.send("GET", orderPath, token: buyer.token)["status"] as? String == "awaiting_payment")
        }
    }
}
