import Foundation
import Testing

/// The app-profile server `scripts/test` starts, when it did.
enum AppProfileServer {
    static var url: URL? {
        HTTPTestServer.environment["KEYCAT_TEST_APP_PROFILE_SERVER_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }
}

/// The example server switched to the KeyCat app's status profile
/// (`KEYCAT_HTTP_STATUS_PROFILE=keycat-app`), which `scripts/test` starts beside the standard one
/// with three-second access tokens (`KEYCAT_TEST_APP_PROFILE_SERVER_URL`): the app's 410, 418, 419
/// and 445 come back, with the same body `code`s as the standard profile.
@Suite("The KeyCat app's status profile over real HTTP", .serialized,
       .enabled(if: AppProfileServer.url != nil || HTTPTestServer.isCI, "KEYCAT_TEST_APP_PROFILE_SERVER_URL is not set (scripts/test sets it)"))
struct StatusProfileHTTPTests {

    @Test("410 for a missing thing, 445 for someone else's, 419 to refresh, 418 to log in again")
    func appStatuses() async throws {
        let client = HTTPClient(base: try #require(AppProfileServer.url, "CI=true, so scripts/test must start the app-profile server"))
        func signUp(_ name: String) async throws -> (id: Int64, access: String, refresh: String) {
            let email = "\(name).\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let created = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": name])
            try #require(created.status == 201, "\(created)")
            let pair = try await client.send("POST", "/sessions", json: ["email": email, "password": "keycat123"])
            return (try #require(created.int("id")), try #require(pair["access_token"] as? String),
                    try #require(pair["refresh_token"] as? String))
        }
        let owner = try await signUp("owner")
        let page = try await client.send("GET", "/products?limit=20")
        let ids = page.items.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        let productID = try #require(ids.first, "\(page)")
        // The server's tokens live three seconds: a loaded machine may need a fresh one.
        var order = try await client.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                          token: owner.access)
        for attempt in 2...6 where order.status == 419 {
            order = try await client.send("POST", "/checkout", json: ["items": [["product_id": productID, "quantity": 1]]],
                                          token: try await signUp("owner\(attempt)").access)
        }
        try #require(order.status == 201, "\(order)")
        let orderID = try #require(order.int("id"))

        var other = try await signUp("other")
        var theirs = try await client.send("GET", "/users/\(owner.id)", token: other.access)
        for attempt in 2...6 where theirs.status == 419 {
            // The three-second token expired on a loaded machine before it was used (a sign-up
            // hashes a password, and CI runs the suites side by side): a fresh one.
            other = try await signUp("other\(attempt)")
            theirs = try await client.send("GET", "/users/\(owner.id)", token: other.access)
        }
        #expect(theirs.status == 445 && theirs.code == "not_owner", "\(theirs)")
        // An order is the exception: someone else's is answered as a missing one.
        let theirOrder = try await client.send("GET", "/orders/\(orderID)", token: other.access)
        #expect((theirOrder.status == 410 && theirOrder.code == "not_found") || theirOrder.status == 419, "\(theirOrder)")
        let missing = try await client.send("GET", "/products/9000000000")
        #expect(missing.status == 410 && missing.code == "not_found", "\(missing)")

        let rotated = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": other.refresh])
        try #require(rotated.status == 200, "\(rotated)")
        let reused = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": other.refresh])
        #expect(reused.status == 418 && reused.code == "refresh_token_expired" && reused["error"] == nil, "\(reused)")

        let expiring = try await signUp("expiring")
        try await Task.sleep(for: .seconds(3.5))
        let expired = try await client.send("GET", "/me", token: expiring.access)
        #expect(expired.status == 419 && expired.code == "access_token_expired", "\(expired)")
    }
}
