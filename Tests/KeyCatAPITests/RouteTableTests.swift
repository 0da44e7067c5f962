import Foundation
import KeyCat
@testable import KeyCatAPI
import Testing

/// The route table refuses what would make a route unreachable or a handler read a wrong id.
@Suite("The route table")
struct RouteTableTests {
    static func route(_ method: String, _ path: String) -> Route {
        Route(APIMethod(method), path, .anyone) { _ in APIResponse(status: 204) }
    }

    @Test("KeyCat's own table has no two routes one request could match")
    func noClashes() {
        let clashes = Route.clashes(in: KeyCatAPI.routeTable)
        #expect(clashes.isEmpty, "\(clashes)")
    }

    @Test("routes one request could match are found; those no request can are not", arguments: [
        ("/products/{id}", "/products/{product_id}", true),
        ("/images/{file_name}", "/images/{id}", true),
        ("/orders/42", "/orders/{id}", true),
        ("/users/mine", "/users/{name_name}", true),
        ("/seller-applications/mine", "/seller-applications/{id}", false),
        ("/orders/0", "/orders/{id}", false),
        ("/products/{id}", "/products/{id}/reviews", false),
        ("/cart", "/checkout", false),
    ])
    func overlaps(first: String, second: String, clash: Bool) {
        #expect(RoutePath(first).overlaps(RoutePath(second)) == clash)
        #expect(RoutePath(second).overlaps(RoutePath(first)) == clash)
        let table = [Self.route("GET", first), Self.route("GET", second), Self.route("POST", second)]
        #expect(Route.clashes(in: table).count == (clash ? 1 : 0), "the same path under another method is no clash")
    }

    @Test("a handler reading a path parameter its pattern does not declare gets an internal error, not an id of 0")
    func undeclaredParameter() async throws {
        try await APITestServer.with { server in
            let context = RequestContext(
                request: APIRequest(method: "GET", target: "/products/7"), keycat: server.keycat, parameters: ["id": "7"],
                caller: nil, route: Self.route("GET", "/products/{id}").description, cache: CatalogCache())
            let id: ProductID = try context.id()
            #expect(id.rawValue == 7)
            #expect(throws: KeyCatError.self) { let _: ProductID = try context.id("product_id") }
            #expect(throws: KeyCatError.self) { _ = try context.name("file_name") }
        }
    }
}
