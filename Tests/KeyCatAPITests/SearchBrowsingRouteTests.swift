import Foundation
import KeyCat
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// `GET /products/facets` and `GET /products/suggestions` over the API, on both stores: the
/// answers' shapes, the 400s naming the field, and the catalog cache's ETag and freshness.
@Suite("Search routes: facets and suggestions")
struct SearchBrowsingRouteTests {
    /// `path` with its query percent-encoded.
    static func target(_ path: String, _ query: [(String, String)]) -> String {
        var components = URLComponents()
        components.path = path
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.string!.replacingOccurrences(of: "+", with: "%2B")
    }

    /// Lists a keyboard at 89,000, a keyboard at 350,000 and a keycap set at 30,000, all by one seller.
    static func stock(_ server: APITestServer) async throws -> (seller: (id: Int64, token: String), ids: [Int64]) {
        let seller = try await server.signedIn(.seller, "searchseller")
        var ids: [Int64] = []
        for (title, category, price) in [("Hanul B87 기계식 키보드", "keyboard", 89_000), ("커스텀 기계식 키보드 E65", "keyboard", 350_000),
                                          ("키보드 키캡 세트", "keycap", 30_000)] {
            var json = APITestServer.productJSON(price: price, title: title)
            json["category"] = category
            let created = try await server.send("POST", "/products", json: json, token: seller.token)
            try #require(created.status == 201, "\(created)")
            ids.append(try #require(created.int("id")))
        }
        return (seller, ids)
    }

    static func counts(_ answer: Answer, _ facet: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for entry in answer[facet] as? [[String: Any]] ?? [] {
            if let value = entry["value"] as? String, let count = entry["count"] as? Int, count > 0 { result[value] = count }
        }
        return result
    }

    @Test("facets: counts under every filter but their own, every band with its bounds, an ETag", arguments: TestStore.allCases)
    func facets(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            _ = try await Self.stock(server)
            let target = Self.target("/products/facets", [("q", "키보드"), ("category", "keyboard"), ("max_price", "100000")])
            let answer = try await server.send("GET", target)
            try #require(answer.status == 200, "\(answer)")
            #expect(answer["total"] as? Int == 1 && answer["approximate"] as? Bool == false && answer["cap"] as? Int == 10_000)
            #expect(Self.counts(answer, "category") == ["keyboard": 1, "keycap": 1], "the category facet ignores category=")
            #expect(Self.counts(answer, "price") == ["50000-99999": 1, "300000-": 1], "the price facet ignores max_price")
            #expect(Self.counts(answer, "kind") == ["commercial": 1])
            #expect((answer["category"] as? [[String: Any]])?.map { $0["value"] as? String } == ["keyboard", "keycap", "switch", "accessory"])
            let bands = try #require(answer["price"] as? [[String: Any]])
            #expect(bands.first?["min_price"] as? Int == 0 && bands.first?["max_price"] as? Int == 49_999)
            #expect(bands.last?["min_price"] as? Int == 300_000 && bands.last?["max_price"] == nil)

            let tag = try #require(answer.response.headers["ETag"])
            #expect(answer.response.headers["Cache-Control"] == "public, no-cache")
            let again = try await server.send("GET", target, headers: ["If-None-Match": tag])
            #expect(again.status == 304)

            let catalog = try await server.send("GET", "/products/facets")
            #expect(catalog.status == 200 && catalog["total"] as? Int == 3, "\(catalog)")
        }
    }

    @Test("suggestions: completions of a partial word, syllables or initials; fresh after a delete", arguments: TestStore.allCases)
    func suggestions(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let (seller, ids) = try await Self.stock(server)
            try await server.catalogCacheReady()
            func suggest(_ text: String, limit: Int? = nil) async throws -> [String] {
                let answer = try await server.send("GET", Self.target("/products/suggestions", [("q", text)] + (limit.map { [("limit", "\($0)")] } ?? [])))
                try #require(answer.status == 200, "\(answer)")
                #expect(answer.response.headers["ETag"] != nil)
                return answer.items.map { "\($0["text"] as? String ?? "?")/\($0["kind"] as? String ?? "?")" }
            }
            #expect(try await suggest("기계ㅅ") == ["기계식/word"])
            #expect(try await suggest("ㅋㅂㄷ") == ["키보드/word"])
            #expect(try await suggest("HANUL") == ["Hanul/word", "Hanul B87 기계식 키보드/title"])
            #expect(try await suggest("키", limit: 1) == ["키보드/word"])
            let deleted = try await server.send("DELETE", "/products/\(ids[0])", token: seller.token)
            try #require(deleted.status == 204, "\(deleted)")
            #expect(try await suggest("HANUL") == [], "the answer kept before the delete is not served")
        }
    }

    /// Requests refused, each with the field its 400 names.
    static let refusals: [(path: String, query: [(String, String)], field: String)] = [
        ("/products/facets", [("q", "")], "q"),
        ("/products/facets", [("q", String(repeating: "키", count: 101))], "q"),
        ("/products/facets", [("q", "!!!")], "q"),
        ("/products/facets", [("q", (1...11).map { "w\($0)" }.joined(separator: " "))], "q"),
        ("/products/facets", [("tag", "갈 축")], "tag"),
        ("/products/facets", [("min_price", "9"), ("max_price", "1")], "min_price"),
        ("/products/facets", [("sort", "newest")], "sort"),
        ("/products/facets", [("category", "mouse")], "category"),
        ("/products/suggestions", [], "q"),
        ("/products/suggestions", [("q", "  ")], "q"),
        ("/products/suggestions", [("q", String(repeating: "a", count: 101))], "q"),
        ("/products/suggestions", [("q", "키"), ("limit", "11")], "limit"),
        ("/products/suggestions", [("q", "키"), ("limit", "0")], "limit"),
        ("/products/suggestions", [("q", "키"), ("category", "keyboard")], "category"),
    ]

    @Test("a bad q, tag, bound or limit, or a parameter the route does not take, is a 400 naming it", arguments: refusals)
    func refused(path: String, query: [(String, String)], field: String) async throws {
        try await APITestServer.with { server in
            let answer = try await server.send("GET", Self.target(path, query))
            #expect(answer.status == 400 && answer.code == "validation" && answer.field == field, "\(path) \(query): \(answer)")
        }
    }
}
