import Foundation
import Testing
@testable import KeyCatAPI

/// A member name given twice in one JSON object is refused, not read as the first or the last;
/// the same walk lists the top-level object's names, which a change body checks
/// (``JSONClosedObject``).
@Suite("JSON bodies' member names")
struct JSONMembersTests {
    @Test("the first name that repeats within one object is found, after unescaping; names in different objects are not repeats", arguments: [
        (#"{"amount": 999999, "amount": 100}"#, "amount" as String?),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"reason": "a \"quoted\" amount", "amount": 1, "restock": true, "amount": 2}"#, "amount"),
        (#"{"items": [{"product_id": 1}, {"product_id": 2}], "x": {"product_id": 3}}"#, nil),
        (#"{"spec": {"layout": "tkl", "layout": "tkl"}}"#, "layout"),
        (#"{"a": "}", "b": "{\"a\": 1}", "c": [1, {"a": 2}]}"#, nil),
        (#"["a", "a", {"k": "a"}]"#, nil),
        (#"{"키캡": 1, "키캡": 2}"#, "키캡"),
        (#"{}"#, nil),
    ])
    func firstRepeat(_ text: String, _ repeated: String?) throws {
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)  // valid JSON, every row
        #expect(JSONMembers.scan(Array(text.utf8)).repeated == repeated)
    }

    @Test("the top-level object's names, unescaped, in order; none for what is not an object", arguments: [
        (#"{"price": 1, "spec": {"layout": "tkl"}, "tags": ["a", {"x": 1}]}"#, ["price", "spec", "tags"]),
        (#"{"a": {"b": {"c": 1}}, "d": 2}"#, ["a", "d"]),
        (#"{"\u0070rise": 1, "a": "}", "b": "{\"c\": 1}"}"#, ["prise", "a", "b"]),
        (#"["a", {"b": 1}]"#, []),
        (#""just text""#, []),
        (#"{}"#, []),
    ])
    func topLevel(_ text: String, _ names: [String]) throws {
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)  // valid JSON, every row
        #expect(JSONMembers.scan(Array(text.utf8)).topLevel == names)
    }

    @Test("text that is not JSON never traps", arguments: [#"{"a"#, #"{"a\"#, #"}}]]"#, #""\"#, "{\"a\":1,\"", ""])
    func notJSON(_ text: String) {
        _ = JSONMembers.scan(Array(text.utf8)).repeated
    }

    @Test("over HTTP a body with a repeated name is a 400 naming it, and nothing is written")
    func refusedOverHTTP() async throws {
        try await APITestServer.with { server in
            let seller = try await server.signedIn(.seller, "twice")
            var raw = String(decoding: try JSONSerialization.data(withJSONObject: APITestServer.productJSON(price: 30_000)), as: UTF8.self)
            raw.removeLast()
            raw += #", "price": 1}"#
            let answer = await server.api.respond(to: APIRequest(
                method: "POST", target: "/products", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(seller.token)"],
                body: Array(raw.utf8)))
            let refused = Answer(response: answer)
            #expect(refused.status == 400 && refused.code == "validation" && refused.field == "price", "\(refused)")
            #expect(try await server.send("GET", "/products").items.isEmpty)
        }
    }
}
