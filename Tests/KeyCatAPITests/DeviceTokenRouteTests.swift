import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// `device_token` through the REST API: handed out by `POST /sessions` and `PUT /me/password`,
/// sent back in their bodies, it keeps strangers' guessing from locking the owner out.
@Suite("Device tokens through the API")
struct DeviceTokenRouteTests {
    @Test("the owner's device token gets them in, and through PUT /me/password, while guessers on rotating addresses hold the account at 429",
          arguments: TestStore.allCases)
    func ownerUnderAttack(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let signUp = try await server.send("POST", "/users", json: ["email": "kim@example.com", "password": "keycat2026", "nick": "kim"],
                                               client: "192.0.2.1")
            try #require(signUp.status == 201, "\(signUp)")
            let first = try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "keycat2026"],
                                              client: "192.0.2.1")
            let device = try #require(first["device_token"] as? String, "\(first)")
            // Token answers are never stored (RFC 6749 §5.1), nor is a caller's own profile.
            #expect(first.response.headers["Cache-Control"] == "no-store")
            let me = try await server.send("GET", "/me", token: try #require(first["access_token"] as? String))
            #expect(me.status == 200 && me.response.headers["Cache-Control"] == "no-store", "\(me)")
            let catalog = try await server.send("GET", "/products")
            #expect(catalog.response.headers["Cache-Control"]?.hasPrefix("public") == true, "the catalog's reads keep their own")
            #expect(first["device_token_expires_at"] is String)
            let refreshed = try await server.send("POST", "/sessions/refresh",
                                                  json: ["refresh_token": try #require(first["refresh_token"] as? String)])
            #expect(refreshed.status == 200 && refreshed["device_token"] == nil, "\(refreshed)")
            #expect(refreshed.response.headers["Cache-Control"] == "no-store")

            for number in 0..<30 {
                let guess = try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "wrong-guess-\(number)"],
                                                  client: "203.0.113.\(number % 3 + 1)")
                #expect(guess.status == 401, "\(guess)")
            }
            for tick in 0..<300 {
                server.clock.advance(by: 0.2)
                try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "wrong-guess-\(tick)"],
                                      client: "2001:db8:\(tick):1::1")
            }
            let stranger = try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "keycat2026"],
                                                 client: "192.0.2.1")
            #expect(stranger.status == 429 && stranger.response.headers["Retry-After"] != nil, "\(stranger)")

            let owner = try await server.send("POST", "/sessions", json: ["email": "kim@example.com", "password": "keycat2026",
                                                                          "device_token": device], client: "192.0.2.1")
            #expect(owner.status == 200, "\(owner)")
            let renewed = try #require(owner["device_token"] as? String)
            let changed = try await server.send("PUT", "/me/password",
                                                json: ["current_password": "keycat2026", "new_password": "keycat2027", "device_token": renewed],
                                                token: try #require(owner["access_token"] as? String), client: "192.0.2.1")
            #expect(changed.status == 200 && changed["device_token"] is String, "\(changed)")
        }
    }
}
