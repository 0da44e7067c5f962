import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// `If-Match` on a listing's writes: the tag `GET /products/{id}` gave, or 412 and nothing written.
@Suite("Conditional writes to a listing")
struct ConditionalWriteTests {
    @Test("a write whose If-Match is not the listing's current tag is 412 and changes nothing; the current tag or * goes through",
          arguments: TestStore.allCases)
    func ifMatch(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "ifmatch")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: seller.token)
            let id = try #require(created.int("id"))
            let read = try await server.send("GET", "/products/\(id)")
            let tag = try #require(read.response.headers["ETag"])

            // Someone else's edit lands; the tag the client holds is now stale.
            #expect(try await server.send("PATCH", "/products/\(id)", json: ["price": 45_000, "version": 1], token: seller.token).status == 200)
            let stale = try await server.send("PATCH", "/products/\(id)", json: ["price": 40_000, "version": 2], token: seller.token,
                                              headers: ["If-Match": tag])
            #expect(stale.status == 412 && stale.code == "precondition_failed", "\(stale)")
            let current = try #require(try await server.send("GET", "/products/\(id)").response.headers["ETag"])
            let weak = try await server.send("PATCH", "/products/\(id)", json: ["price": 40_000, "version": 2], token: seller.token,
                                             headers: ["If-Match": "W/" + current])
            #expect(weak.status == 412, "a weak tag never matches a write's If-Match, even the current one")
            #expect(try await server.send("GET", "/products/\(id)")["price"] as? Int == 45_000)
            // Another seller's write is refused as it would be without the header, not with 412.
            let stranger = try await server.signedIn(.seller, "stranger")
            let foreign = try await server.send("PATCH", "/products/\(id)", json: ["price": 1_000, "version": 2], token: stranger.token,
                                                headers: ["If-Match": "\"nope\""])
            #expect(foreign.status == 403 || foreign.status == 404, "\(foreign)")
            let deleteStale = try await server.send("DELETE", "/products/\(id)", token: seller.token, headers: ["If-Match": tag])
            #expect(deleteStale.status == 412)

            let fresh = try await server.send("PATCH", "/products/\(id)", json: ["price": 40_000, "version": 2], token: seller.token,
                                              headers: ["If-Match": "\"nope\", " + current])
            #expect(fresh.status == 200 && fresh["price"] as? Int == 40_000, "\(fresh)")
            #expect(try await server.send("DELETE", "/products/\(id)", token: seller.token, headers: ["If-Match": "*"]).status == 204)
            // Gone: the delete would be a 404 without the header, and is with it.
            let gone = try await server.send("DELETE", "/products/\(id)", token: seller.token, headers: ["If-Match": "*"])
            #expect(gone.status == 404, "\(gone)")
        }
    }
}
