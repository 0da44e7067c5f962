import Foundation
import Testing
@testable import KeyCatAPI

/// A change naming a member KeyCat does not read is refused, naming it, and changes nothing:
/// answered 200, `{"prise": 1}` would leave the client believing the price was changed.
@Suite("Changes with an unknown member")
struct UnknownMemberTests {
    @Test("PATCH of a listing, a profile or an address with a misspelt member is a 400 naming it; nothing changes")
    func refused() async throws {
        try await APITestServer.with { server in
            let seller = try await server.signedIn(.seller, "closed")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(price: 30_000), token: seller.token)
            let id = try #require(created.int("id")), version = try #require(created.int("version"))

            let listing = try await server.send("PATCH", "/products/\(id)", json: ["version": version, "prise": 1, "stok": 0],
                                                token: seller.token)
            #expect(listing.status == 400 && listing.code == "validation" && listing.field == "prise", "\(listing)")
            let unchanged = try await server.send("GET", "/products/\(id)")
            #expect(unchanged.int("price") == 30_000 && unchanged.int("version") == version, "\(unchanged)")
            let known = try await server.send("PATCH", "/products/\(id)", json: ["version": version, "price": 29_000], token: seller.token)
            #expect(known.status == 200 && known.int("price") == 29_000, "\(known)")

            let profile = try await server.send("PATCH", "/me", json: ["nick": "closed2", "nickname": "x"], token: seller.token)
            #expect(profile.status == 400 && profile.field == "nickname", "\(profile)")
            #expect(try await server.send("GET", "/me", token: seller.token)["nick"] as? String == "closed")

            let address = try await server.send("POST", "/me/addresses", json: [
                "recipient": "김하늘", "phone": "010-1234-5678", "postcode": "06236", "road_address": "서울 강남구 테헤란로 123",
                "detail": "4층"], token: seller.token)
            let addressID = try #require(address.int("id"))
            let moved = try await server.send("PATCH", "/me/addresses/\(addressID)", json: ["detail": "5층", "zipcode": "06237"],
                                              token: seller.token)
            #expect(moved.status == 400 && moved.field == "zipcode", "\(moved)")
            let book = try await server.send("GET", "/me/addresses", token: seller.token)
            #expect(book.items.first?["detail"] as? String == "4층", "\(book)")
        }
    }

    @Test("the first unknown member is named, the same one every time, and only top-level members are checked", arguments: [
        (#"{"version": 1, "stok": 0, "prise": 1}"#, "prise" as String?),
        (#"{"version": 1, "spec": {"anything": 1}}"#, nil),
        (#"{"version": 1}"#, nil),
        (#"[1, 2]"#, nil),
    ])
    func firstUnknown(_ text: String, _ unknown: String?) {
        #expect(ProductChangesBody.unknownMember(in: Array(text.utf8)) == unknown)
    }
}
