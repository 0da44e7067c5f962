import Foundation
import Testing

/// A hostile client against the example server over real HTTP: text that is few characters and
/// many bytes (issue: a nick of "a" + 400,000 × U+0301 + "b" was accepted, and the anonymous
/// followers list of the user it followed answered 800 KB for one entry).
@Suite("A hostile client: text of few characters and many bytes", .serialized,
       .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HostileSizeTests {
    @Test("a nick of 2 characters and 800 KB is refused, and the followers list stays small")
    func combiningNick() async throws {
        let client = try HTTPTestServer.client()
        let nick = "a" + String(repeating: "\u{301}", count: 400_000) + "b"
        let email = "marks.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": nick])
        #expect(signUp.status == 400 && signUp.code == "validation" && signUp["field"] as? String == "nick", "\(signUp.description.prefix(300))")
        let logIn = try await client.send("POST", "/sessions", json: ["email": email, "password": "keycat123"])
        #expect(logIn.status == 401, "no account was made: \(logIn)")

        // The widest nick that passes: 20 characters of 4 bytes.
        let followee = try await HostileAccessTests.newBuyer(client, "followee")
        let wideEmail = "wide.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let widest = try await client.send("POST", "/users", json: [
            "email": wideEmail, "password": "keycat123", "nick": String(repeating: "\u{1D11E}", count: 20),
        ])
        try #require(widest.status == 201, "\(widest)")
        let wide = try await client.logIn(wideEmail, "keycat123")
        #expect(try await wide.send("PUT", "/users/\(followee.userID)/follow").status == 200)
        let followers = try await client.send("GET", "/users/\(followee.userID)/followers")
        #expect(followers.status == 200 && followers.items.count == 1 && followers.body.count < 512, "\(followers)")
    }

    @Test("a listing whose title or description is within its characters but over its bytes is refused, and not listed")
    func heavyListing() async throws {
        let client = try HTTPTestServer.client()
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        let marker = "heavy-\(UUID().uuidString.prefix(8))"
        // 100 characters, each a letter and 30 combining marks: 6,100 bytes for a 400-byte cap.
        let heavyTitle = marker + String(repeating: "e" + String(repeating: "\u{316}", count: 30), count: 100 - marker.count)
        // 2,000 characters of 8 bytes each: 16,000 bytes for an 8,000-byte cap.
        let heavyContent = String(repeating: "👍🏽", count: 2_000)
        for (title, content, field) in [(heavyTitle, "plain", "title"), (marker, heavyContent, "content")] {
            var product = HTTPJourneyTests.product(title: title, price: 10_000, stock: 1)
            product["content"] = content
            let answer = try await seller.send("POST", "/products", json: product)
            #expect(answer.status == 400 && answer["field"] as? String == field, "\(field): \(answer.description.prefix(300))")
        }
        let listed = try await client.send("GET", "/products?seller_id=\(seller.userID)&limit=100")
        #expect(!listed.text.contains(marker), "a refused listing was stored")
    }
}
