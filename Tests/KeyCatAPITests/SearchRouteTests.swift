import Foundation
import KeyCat
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// `GET /products?q=…` through the API: percent-encoded Korean, tags in and out, the 400s that
/// name `q`, `tag` and `sort`, and ETags that follow a write.
@Suite("Search routes")
struct SearchRouteTests {
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("a listing is found by Korean, by prefix and by tag, with its tags in the body", arguments: TestStore.allCases)
    func search(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "searchseller")
            var json = APITestServer.productJSON(title: "Hanul H61 미니 블루투스 키보드 (갈축)")
            json["tags"] = ["#갈축", "Mini"]
            let created = try await server.send("POST", "/products", json: json, token: seller.token)
            try #require(created.status == 201, "\(created)")
            #expect(created["tags"] as? [String] == ["갈축", "Mini"])
            _ = try await server.send("POST", "/products", json: APITestServer.productJSON(title: "저소음 적축 키보드"), token: seller.token)
            for (query, count) in [("갈축", 1), ("블루투스키보드", 1), ("HAN", 1), ("키보드", 2), ("ㄱㅊ", 1), ("없는말", 0)] {
                let page = try await server.send("GET", "/products?q=\(Self.encoded(query))")
                #expect(page.status == 200 && page.items.count == count, "\(query): \(page)")
            }
            let plus = try await server.send("GET", "/products?q=%EC%A0%80%EC%86%8C%EC%9D%8C+%EC%A0%81%EC%B6%95")  // 저소음+적축
            #expect(plus.items.count == 1 && plus.items.first?["title"] as? String == "저소음 적축 키보드", "\(plus)")
            let tagged = try await server.send("GET", "/products?tag=MINI&q=\(Self.encoded("키보드"))&sort=price_asc")
            #expect(tagged.items.count == 1, "\(tagged)")
            let byTag = try await server.send("GET", "/products?tag=\(Self.encoded("#갈축"))")
            #expect(byTag.items.count == 1, "\(byTag)")
        }
    }

    @Test("an empty or over-long q, a bad tag and relevance without q are 400s naming their field; nothing is listed")
    func refusals() async throws {
        try await APITestServer.with(.sqlite) { server in
            _ = try await server.product()
            for (target, field) in [("/products?q=", "q"), ("/products?q=%20%20", "q"), ("/products?q=\(String(repeating: "a", count: 101))", "q"),
                                    ("/products?q=\((1...11).map { "w\($0)" }.joined(separator: "+"))", "q"), ("/products?q=%21%21", "q"),
                                    ("/products?tag=a%20b", "tag"), ("/products?sort=relevance", "sort")] {
                let answer = try await server.send("GET", target)
                #expect(answer.status == 400 && answer.code == "validation" && answer.field == field, "\(target): \(answer)")
            }
            let seller = try await server.signedIn(.seller, "tagseller")
            var json = APITestServer.productJSON()
            json["tags"] = (1...11).map { "t\($0)" }
            let refused = try await server.send("POST", "/products", json: json, token: seller.token)
            #expect(refused.status == 400 && refused.field == "tags", "\(refused)")
        }
    }

    @Test("a search answer carries an ETag that a matching If-None-Match turns into 304, until a write changes it",
          arguments: TestStore.allCases)
    func conditional(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "etagseller")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(title: "몽돌 택타일 갈축"),
                                                token: seller.token)
            let id = try #require(created.int("id"))
            try await server.catalogCacheReady()
            let target = "/products?q=\(Self.encoded("몽돌"))"
            let first = try await server.send("GET", target)
            let tag = try #require(first.response.headers["ETag"])
            #expect(try await server.send("GET", target, headers: ["If-None-Match": tag]).status == 304)
            let patched = try await server.send("PATCH", "/products/\(id)", json: ["title": "노을 택타일 갈축", "version": 1], token: seller.token)
            try #require(patched.status == 200, "\(patched)")
            let after = try await server.send("GET", target, headers: ["If-None-Match": tag])
            #expect(after.status == 200 && after.items.isEmpty, "the renamed listing is no longer found: \(after)")
        }
    }

    @Test("a query parameter whose percent-encoding is not UTF-8 is a 400 naming it, not a search for its escapes")
    func badPercentEncoding() async throws {
        try await APITestServer.with(.sqlite) { server in
            _ = try await server.product()
            for (target, field) in [("/products?q=%ED%A0%80", "q"),  // a lone surrogate
                                    ("/products?q=%EA%B0%88%EC%B6%95%2075%", "q"),  // a bare % after 갈축 75
                                    ("/products?q=%EA%B0", "q"), ("/products?tag=%FF", "tag"),
                                    ("/products/suggestions?q=ab%2", "q"), ("/products?q=%EA%B0%88%EC%B6%95&limit=%G1", "limit")] {
                let answer = try await server.send("GET", target)
                #expect(answer.status == 400 && answer.code == "validation" && answer.field == field, "\(target): \(answer)")
            }
            let plain = try await server.send("GET", "/products?q=%EA%B0%88%EC%B6%95%2075%25")  // 갈축 75%
            #expect(plain.status == 200, "\(plain)")
        }
    }

    @Test("a suggestion's control characters break words as the list's do, on both stores: alone, a 400 naming q",
          arguments: TestStore.allCases)
    func suggestionControlCharacters(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            _ = try await server.product()
            for target in ["/products/suggestions?q=%00", "/products/suggestions?q=%01%1F", "/products?q=%00"] {
                let answer = try await server.send("GET", target)
                #expect(answer.status == 400 && answer.code == "validation" && answer.field == "q", "\(target): \(answer)")
            }
            let typed = try await server.send("GET", "/products/suggestions?q=a%00")
            #expect(typed.status == 200, "\(typed)")
        }
    }
}
