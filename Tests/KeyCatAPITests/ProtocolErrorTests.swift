import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The answers of the API layer itself: unknown paths, wrong methods, bodies that are malformed,
/// too large or not JSON, missing tokens and roles. None of them is ever a 500.
@Suite("Protocol errors: 404, 405 with Allow, 400 naming the field, 413, 415, 401, 403")
struct ProtocolErrorTests {
    @Test("an unknown path is 404", arguments: [
        "/", "/nope", "/products/abc", "/products/0", "/products/-1", "/products/1/nothing", "/products/99999999999999999999", "/products/9223372036854775808",
        "/users/1/reviews/2",
        // Non-canonical spellings of real ids: a leading zero makes no second name of a resource.
        "/products/07", "/products/0000000000000000007", "/orders/0001/refunds",
        // Non-canonical spellings of real paths name nothing.
        "//users", "//products", "/products/", "/products//1", "/./products", "/products/../users", "/products/1/.",
    ])
    func unknownPath(_ path: String) async throws {
        try await APITestServer.with { server in
            let answer = try await server.send("GET", path)
            #expect(answer.status == 404 && answer.code == "route_not_found", "\(answer)")
        }
    }

    @Test("a known path with another method is 405 listing the allowed ones", arguments: [
        ("PUT", "/products", "GET, HEAD, POST"),
        ("POST", "/products/7", "DELETE, GET, HEAD, PATCH"),
        ("GET", "/checkout", "POST"),
        ("HEAD", "/checkout", "POST"),
        ("PATCH", "/cart", "DELETE, GET, HEAD"),
        ("GET", "/webhooks/pg", "POST"),
        ("DELETE", "/me", "GET, HEAD, PATCH"),
    ])
    func wrongMethod(_ method: String, _ path: String, _ allow: String) async throws {
        try await APITestServer.with { server in
            let answer = try await server.send(method, path)
            // A HEAD's answer has no body to carry the code.
            #expect(answer.status == 405 && (method == "HEAD" ? answer.response.body.isEmpty : answer.code == "method_not_allowed"),
                    "\(answer)")
            #expect(answer.response.headers["allow"] == allow)
        }
    }

    @Test("HEAD is GET without its body: the same status and headers, its length among them, on every GET route")
    func head() async throws {
        try await APITestServer.with { server in
            let productID = try await server.product()
            for path in ["/products", "/products/\(productID)", "/products/facets", "/products/suggestions?q=gat"] {
                let get = try await server.send("GET", path)
                let head = try await server.send("HEAD", path)
                #expect(head.status == get.status && head.response.body.isEmpty, "\(path): \(head)")
                #expect(head.response.headers["Content-Length"] == String(get.response.body.count), "\(path)")
                #expect(head.response.headers["ETag"] == get.response.headers["ETag"], "\(path)")
                #expect(head.response.headers["Content-Type"] == get.response.headers["Content-Type"], "\(path)")
            }
            let signedOut = try await server.send("HEAD", "/me")
            #expect(signedOut.status == 401 && signedOut.response.body.isEmpty)
        }
    }

    /// (method, target, raw JSON body, the field the 400 names)
    static let badInput: [(String, String, String, String)] = [
        ("POST", "/users", "{}", "email"),
        ("POST", "/users", #"{"email": 5, "password": "keycat123", "nick": "mina"}"#, "email"),
        ("POST", "/users", #"{"email": "a@example.com", "password": "keycat123", "nick": "mina", "birthday": "1999-13-01"}"#, "birthday"),
        ("POST", "/users", #"{"email": "a@example.com", "password": "short", "nick": "mina"}"#, "password"),
        ("POST", "/users", #"{"email":"#, "body"),
        ("POST", "/users", "[1, 2]", "body"),
        ("POST", "/sessions", #"{"email": "a@example.com"}"#, "password"),
        ("POST", "/sessions/refresh", #"{"refresh_token": null}"#, "refresh_token"),
        ("POST", "/cart/items", #"{"product_id": "seven"}"#, "product_id"),
        ("PUT", "/cart/items/1", #"{"quantity": 1.5}"#, "quantity"),
        ("POST", "/checkout", #"{"items": [{"product_id": 1}]}"#, "items.0.quantity"),
        ("POST", "/checkout", #"{"items": [{"product_id": 1, "quantity": 99999999999999999999}]}"#, "items.0.quantity"),
        ("POST", "/orders/1/confirm", "{}", "imp_uid"),
        ("PATCH", "/products/1", #"{"title": "new"}"#, "version"),
        ("POST", "/products", #"{"kind": "spaceship"}"#, "kind"),
        ("POST", "/orders/1/refund", #"{"amount": "lots", "reason": "x"}"#, "amount"),
        ("GET", "/products?limit=0", "", "limit"),
        ("GET", "/products?limit=many", "", "limit"),
        ("GET", "/products?sort=cheapest", "", "sort"),
        ("GET", "/products?hot_swap=maybe", "", "hot_swap"),
        ("GET", "/products?min_price=x", "", "min_price"),
        ("GET", "/products?min_price=9&max_price=1", "", "min_price"),
        ("GET", "/orders?status=lost", "", "status"),
        ("GET", "/orders?seller_id=x", "", "seller_id"),
        ("GET", "/orders?placed_from=yesterday", "", "placed_from"),
        ("GET", "/orders?placed_from=2026-11-01T00:00:00", "", "placed_from"),
        ("GET", "/orders?placed_before=2026-11-01", "", "placed_before"),
        ("GET", "/orders?placed_from=2026-11-01T09:00:00%2B09:00&placed_before=2026-11-01T00:00:00Z", "", "placed_from"),
        ("GET", "/users?nick=%20", "", "nick"),
        ("GET", "/users?email=mina@example.com&limit=0", "", "limit"),
        ("GET", "/users?email=mina@example.com&next=", "", "next"),
        ("GET", "/users?nick=%E2%80%AEab", "", "nick"),
    ]

    @Test("malformed JSON, a wrong type, a missing field or a broken rule is 400 naming the field", arguments: badInput)
    func badRequest(_ method: String, _ target: String, _ body: String, _ field: String) async throws {
        try await APITestServer.with { server in
            let admin = try await server.signedIn(.admin, "operator")
            let answer = await server.api.respond(to: APIRequest(
                method: APIMethod(method), target: target, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(admin.token)"],
                body: Array(body.utf8)))
            let parsed = Answer(response: answer)
            #expect(parsed.status == 400 && parsed.code == "validation", "\(parsed)")
            #expect(parsed.field == field, "\(parsed)")
        }
    }

    @Test("a product's images are checked: not base64 names the image", arguments: TestStore.allCases)
    func badImage(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "seller")
            var json = APITestServer.productJSON()
            json["images"] = ["not base64!"]
            let answer = try await server.send("POST", "/products", json: json, token: seller.token)
            #expect(answer.status == 400 && answer.field == "images.0", "\(answer)")
            json["images"] = [Data("plain text, not an image".utf8).base64EncodedString()]
            let notImage = try await server.send("POST", "/products", json: json, token: seller.token)
            #expect(notImage.status == 400, "\(notImage)")
        }
    }

    /// A token of a role the route admits, or nil for a route anyone may call.
    private static func token(for route: RouteDescription, on server: APITestServer) async throws -> String? {
        switch route.access {
        case .anyone: return nil
        case .signedIn: return try await server.signedIn(.buyer, "caller").token
        case let .roles(roles): return try await server.signedIn(roles.sorted { $0.rawValue < $1.rawValue }[0], "caller").token
        }
    }

    @Test("a body over the route's limit is 413 naming the limit, by its size or by its Content-Length",
          arguments: KeyCatAPI.routes.filter { $0.body != .none })
    func tooLarge(_ route: RouteDescription) async throws {
        try await APITestServer.with { server in
            let path = route.path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{product_id}", with: "1")
            var headers: APIHeaders = ["Content-Type": "application/json"]
            if let token = try await Self.token(for: route, on: server) { headers["Authorization"] = "Bearer \(token)" }
            let answer = Answer(response: await server.api.respond(to: APIRequest(
                method: route.method, path: path, headers: headers,
                body: [UInt8](repeating: UInt8(ascii: " "), count: route.body.limit + 1))))
            #expect(answer.status == 413 && answer.code == "payload_too_large", "\(answer)")
            #expect(answer["limit"] as? String == String(route.body.limit))
            // The head alone is enough: a Content-Length over the limit is refused before any body.
            headers["Content-Length"] = String(route.body.limit + 1)
            let admission = await server.api.admit(APIRequest(method: route.method, path: path, headers: headers))
            #expect(admission.refusal?.status == 413, "\(route)")
            headers["Content-Length"] = String(route.body.limit)
            if case .image = route.body { headers["Content-Type"] = "image/png" }
            await #expect(server.api.admit(APIRequest(method: route.method, path: path, headers: headers)).bodyLimit == route.body.limit)
        }
    }

    @Test("a route that needs a token answers 401 without one before it looks at the body",
          arguments: KeyCatAPI.routes.filter { $0.access != .anyone && $0.body != .none })
    func tokenBeforeBody(_ route: RouteDescription) async throws {
        try await APITestServer.with { server in
            let path = route.path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{product_id}", with: "1")
            let head = APIRequest(method: route.method, path: path,
                                  headers: ["Content-Type": "text/plain", "Content-Length": String(route.body.limit * 4)])
            await #expect(server.api.admit(head).refusal?.status == 401, "\(route)")
        }
    }

    @Test("a JSON route sent anything but JSON is 415", arguments: KeyCatAPI.routes.filter {
        if case .json = $0.body { return true } else { return false }
    })
    func notJSON(_ route: RouteDescription) async throws {
        try await APITestServer.with { server in
            let path = route.path.replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{product_id}", with: "1")
            let token = try await Self.token(for: route, on: server)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", nil] {
                var headers: APIHeaders = [:]
                headers["Content-Type"] = contentType
                if let token { headers["Authorization"] = "Bearer \(token)" }
                let answer = Answer(response: await server.api.respond(to: APIRequest(
                    method: route.method, path: path, headers: headers, body: Array("{}".utf8))))
                #expect(answer.status == 415 && answer.code == "unsupported_media_type", "\(contentType ?? "none"): \(answer)")
            }
            let charset = Answer(response: await server.api.respond(to: APIRequest(
                method: route.method, path: path, headers: ["content-type": "Application/JSON; charset=utf-8"], body: Array("{}".utf8))))
            #expect(charset.status != 415, "\(charset)")
        }
    }

    @Test("no route answers 5xx to garbage, missing ids or the wrong shape", arguments: TestStore.allCases, KeyCatAPI.routes)
    func neverServerError(_ store: TestStore, _ route: RouteDescription) async throws {
        try await APITestServer.with(store) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let path = route.path.replacingOccurrences(of: "{id}", with: "9223372036854775807").replacingOccurrences(of: "{product_id}", with: "9223372036854775807")
            // Garbage in every parameter the route declares (one it does not is a 400 before
            // the handler, which would leave the bodies below unread).
            let garbage = ["limit": "abc", "next": "%00", "status": "x", "sort": "%FF"]
            let query = route.query.map { "\($0)=\(garbage[$0] ?? "%FF")" }.joined(separator: "&")
            for body in [#"{"x":"#, "[]", "null", #"{"items": 7, "version": "x", "reason": 5}"#, "", "\u{0}\u{1}", Self.nulFields] {
                let answer = Answer(response: await server.api.respond(to: APIRequest(
                    method: route.method, target: query.isEmpty ? path : path + "?" + query,
                    headers: ["Content-Type": "application/json", "Authorization": "Bearer \(admin.token)"],
                    body: Array(body.utf8))))
                #expect(answer.status < 500, "\(route) with \(body): \(answer)")
            }
        }
    }

    /// Every text field a route reads, each holding an escaped NUL (which Postgres cannot store).
    static let nulFields = #"{"title": "a\u0000b", "content": "\u0000", "reason": "x\u0000", "nick": "ki\u0000m", "#
        + #""email": "ki\u0000m@example.com", "password": "keycat\u00001", "representative_name": "\u0000", "#
        + #""business_number": "2208162517\u0000", "carrier": "CJ\u0000", "tracking_number": "1\u0000", "#
        + #""imp_uid": "imp\u0000", "refresh_token": "\u0000", "profile_image": "\u0000", "phone": "\u0000"}"#

    @Test("a NUL in a listing's description is kept on SQLite and a 400 naming no store on Postgres, never a 500",
          arguments: TestStore.allCases)
    func nulInJSON(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "seller")
            var json = APITestServer.productJSON()
            json["content"] = "가스켓\u{0}마운트"
            let answer = try await server.send("POST", "/products", json: json, token: seller.token)
            if store == .postgres {
                #expect(answer.status == 400 && answer.code == "validation", "\(answer)")
                let text = String(decoding: answer.response.body, as: UTF8.self)
                #expect(!text.lowercased().contains("postgres") && !text.contains("sql_state"), "\(text)")
                let listed = try await server.send("GET", "/products")
                #expect((listed["items"] as? [Any])?.isEmpty == true, "the refused listing was not stored: \(listed)")
            } else {
                #expect(answer.status == 201 && answer["content"] as? String == "가스켓\u{0}마운트", "\(answer)")
            }
        }
    }

    @Test("a signed-in route without a token is 401 with WWW-Authenticate; a bad token is 401; a role that may not is 403")
    func authentication() async throws {
        try await APITestServer.with { server in
            let missing = try await server.send("GET", "/me")
            #expect(missing.status == 401 && missing.code == "invalid_token", "\(missing)")
            #expect(missing.response.headers["www-authenticate"] == "Bearer")
            let forged = try await server.send("GET", "/me", token: "not.a.token")
            #expect(forged.status == 401 && forged.code == "invalid_token", "\(forged)")
            #expect(forged.response.headers["www-authenticate"]?.hasPrefix(#"Bearer error="invalid_token""#) == true)
            let basic = try await server.send("GET", "/me", headers: ["Authorization": "Basic dXNlcjpwYXNz"])
            #expect(basic.status == 401, "\(basic)")
            let buyer = try await server.signedIn(.buyer, "buyer")
            for (method, target) in [("GET", "/users"), ("GET", "/seller-applications"), ("POST", "/orders/1/ship"),
                                     ("POST", "/products")] {
                let answer = try await server.send(method, target, json: [:], token: buyer.token)
                #expect(answer.status == 403 && answer.code == "forbidden", "\(method) \(target): \(answer)")
            }
        }
    }
}
