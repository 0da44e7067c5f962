import Foundation
import KeyCatAPI
import Testing

@Suite("Requests and responses as plain values")
struct HTTPValueTests {
    @Test("header names compare case-insensitively; setting replaces every field of the name")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Trace": "a"]
        headers.add("x-trace", "b")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values("X-TRACE") == ["a", "b"])
        headers["X-Trace"] = "c"
        #expect(headers.values("x-trace") == ["c"])
        headers["CONTENT-TYPE"] = nil
        #expect(headers["Content-Type"] == nil)
        #expect(HTTPHeaders([("A", "1")]) == HTTPHeaders([("a", "1")]))
    }

    @Test("a target splits into path and percent-decoded query")
    func target() {
        let request = APIRequest(method: "get", target: "/products?sort=price_asc&next=a%2Bb%3D&q=two+words&flag")
        #expect(request.method == .get)
        #expect(request.path == "/products")
        #expect(request.queryValue("next") == "a+b=")
        #expect(request.queryValue("q") == "two words")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("missing") == nil)
    }

    @Test("a method is compared by its upper-case name, and any name is kept")
    func methods() {
        #expect(APIMethod("get") == .get)
        #expect(APIMethod("Patch") == .patch && APIMethod.patch.rawValue == "PATCH")
        #expect(APIMethod("brew").rawValue == "BREW")
        #expect(APIMethod("BREW") != .post)
    }
}
