import Foundation
import Testing
@testable import KeyCatInfrastructure

@Suite("JSON objects, keys in code-point order")
struct JSONObjectEncodingTests {
    @Test("reads back as the object it encoded, whatever it nests")
    func roundTrip() throws {
        let object: [String: Any] = [
            "code": 0, "message": NSNull(), "escrow": false, "paid": true, "amount": Int64(9_223_372_036_854_775_807),
            "ratio": 0.25, "big": 1e300, "negative": -42, "text": "키캣 \"quoted\" \\ / \n\t\r\u{01}\u{1F} 🐱",
            "list": [1, "two", NSNull(), ["nested": [true]], [] as [Any]], "empty": [String: Any](),
        ]
        let data = try JSONObjectEncoding.data(object)
        // A standard parser reads it, and what it read encodes to the same bytes.
        let back = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(try JSONObjectEncoding.data(back) == data)
        #expect(back["text"] as? String == object["text"] as? String)
        #expect((back["amount"] as? NSNumber)?.int64Value == .max)
        #expect((back["big"] as? NSNumber)?.doubleValue == 1e300 && (back["ratio"] as? NSNumber)?.doubleValue == 0.25)
        #expect(back["message"] is NSNull && (back["empty"] as? [String: Any])?.isEmpty == true)
        let list = try #require(back["list"] as? [Any])
        #expect(list.count == 5 && list[1] as? String == "two" && list[2] is NSNull)
        // Booleans stay booleans and numbers numbers.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""escrow":false"#) && text.contains(#""paid":true"#) && text.contains(#""code":0,"#))
        #expect(text.contains(#""nested":[true]"#) && text.contains(#""negative":-42"#))
    }

    @Test("keys come in code-point order, at every depth, so equal objects are equal bytes")
    func keyOrder() throws {
        let text = String(decoding: try JSONObjectEncoding.data([
            "b": 1, "B": 2, "a_b": 3, "ab": 4, "a": ["z": 1, "Z": 2, "가": 3, "é": 4],
        ]), as: UTF8.self)
        #expect(text == #"{"B":2,"a":{"Z":2,"z":1,"é":4,"가":3},"a_b":3,"ab":4,"b":1}"#)
    }

    @Test("what JSONSerialization read is written back with its booleans, integers and fractions")
    func parsedValues() throws {
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(#"{"t":true,"f":false,"i":12,"d":2.5,"n":null}"#.utf8)) as? [String: Any])
        #expect(String(decoding: try JSONObjectEncoding.data(parsed), as: UTF8.self) == #"{"d":2.5,"f":false,"i":12,"n":null,"t":true}"#)
    }

    @Test("a number JSON cannot hold, or a value that is not JSON's, is an error")
    func unencodable() {
        #expect(throws: JSONObjectEncoding.Unencodable.self) { try JSONObjectEncoding.data(["x": Double.nan]) }
        #expect(throws: JSONObjectEncoding.Unencodable.self) { try JSONObjectEncoding.data(["x": Double.infinity]) }
        #expect(throws: JSONObjectEncoding.Unencodable.self) { try JSONObjectEncoding.data(["x": Date()]) }
    }
}
