import Foundation
import KeyCatAPI
import Testing

@Suite("Requests and responses as plain values")
struct HTTPValueTests {
    @Test("header names compare case-insensitively; setting replaces every field of the name")
    func headers() {
        var headers: APIHeaders = ["Content-Type": "application/json", "X-Trace": "a"]
        headers.add("x-trace", "b")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values("X-TRACE") == ["a", "b"])
        headers["X-Trace"] = "c"
        #expect(headers.values("x-trace") == ["c"])
        headers["CONTENT-TYPE"] = nil
        #expect(headers["Content-Type"] == nil)
        #expect(APIHeaders([("A", "1")]) == APIHeaders([("a", "1")]))
        #expect(APIHeaders([("A", "1")]).hashValue == APIHeaders([("a", "1")]).hashValue)
        #expect(APIHeaders([("A", "1")]).lowercased == ["a": "1"])
    }

    @Test("only ASCII letters fold: equality, hashing and lowercased agree with look-ups")
    func headerNamesFoldASCIIOnly() {
        // The Kelvin sign lowers to an ASCII "k" under Unicode's rules; field names are ASCII
        // tokens, and a look-up of "key" does not find it.
        let kelvin = APIHeaders([("\u{212A}ey", "1")])
        let ascii = APIHeaders([("Key", "1")])
        #expect(kelvin["key"] == nil && ascii["key"] == "1")
        #expect(kelvin != ascii)
        #expect(kelvin.lowercased == ["\u{212A}ey": "1"])
        #expect(Set([kelvin, ascii, APIHeaders([("KEY", "1")])]).count == 2)
        // Same fields in another order, or a repeated name, make different headers.
        #expect(APIHeaders([("a", "1"), ("b", "2")]) != APIHeaders([("b", "2"), ("a", "1")]))
        #expect(APIHeaders([("a", "1")]) != APIHeaders([("a", "1"), ("A", "1")]))
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
