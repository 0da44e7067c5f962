import KeyCatAPI
import Testing

@Suite("What an access log keeps of a request's target")
struct LoggableTargetTests {
    @Test("the path and the query's names, never its values", arguments: [
        ("/users?email=mina@example.com&limit=5", "/users?email=…&limit=…"),
        ("/products?q=%EC%A0%80%EC%86%8C%EC%9D%8C%20%EC%A0%81%EC%B6%95&sort=relevance", "/products?q=…&sort=…"),
        ("/products?next=eyJrIjoxfQ", "/products?next=…"),
        ("/products/7", "/products/7"),
        ("/products?", "/products"),
        ("/products?flag&x=", "/products?flag&x=…"),
        ("/users?email=a@b.c#frag", "/users?email=…"),
        ("/p?=secret", "/p?=…"),
    ])
    func keepsNames(_ target: String, _ logged: String) {
        #expect(APIRequest.loggable(target) == logged)
        #expect(!APIRequest.loggable(target).contains("@"))
    }

    @Test("a stranger's long target stays one short line")
    func bounded() {
        let long = APIRequest.loggable("/" + String(repeating: "a", count: 10_000) + "?" + String(repeating: "b=1&", count: 10_000))
        #expect(long.count <= 2 * APIRequest.maximumLoggedPath + 8)
        #expect(long.hasSuffix("&…"))
        #expect(long.hasPrefix("/" + String(repeating: "a", count: APIRequest.maximumLoggedPath - 1) + "…?b=…&b=…"))
    }
}
