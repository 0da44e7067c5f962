import Foundation
import KeyCatDomain
import Testing

/// An event's data as stored and delivered: JSON that any parser reads back to the same tree,
/// keys sorted, times in UTC to the second.
@Suite("Event data")
struct EventDataTests {
    @Test("the hand-written JSON parses back to the same tree, whatever the strings hold")
    func roundTrip() throws {
        let data: EventData = [
            "title": "키보드 \"Felt\" \\ 75% \n\t\u{1}\u{1F}끝", "amount": 132_000, "negative": -5, "paid": true, "refunded": false,
            "nothing": .null, "lines": [["product_id": 7, "title": "Caps/PBT"], []], "empty": [:],
            "emoji": "⌨️🐈", "zero": 0, "max": .integer(Int64.max), "min": .integer(Int64.min),
        ]
        let json = data.json()
        #expect(try EventData.decoding(json) == data)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["title"] as? String == "키보드 \"Felt\" \\ 75% \n\t\u{1}\u{1F}끝")
        #expect(json.hasPrefix(#"{"amount":132000,"emoji":"#) && json.contains(#"\n\t\u0001\u001f끝""#) && json.contains(#""Caps/PBT""#))
        #expect(EventData([:]).json() == "{}")
    }

    @Test("times are ISO 8601 in UTC to the second, across leap days, centuries and before 1970",
          arguments: [
            (0.0, "1970-01-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"), (1_796_463_164.9, "2026-12-05T09:32:44Z"),
            (-1, "1969-12-31T23:59:59Z"), (-2_208_988_800, "1900-01-01T00:00:00Z"), (4_107_542_399, "2100-02-28T23:59:59Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
          ])
    func times(_ seconds: Double, _ expected: String) {
        #expect(EventValue.time(Date(timeIntervalSince1970: seconds)) == .string(expected))
        let formatter = ISO8601DateFormatter()
        #expect(formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down))) == expected)
    }
}

@Suite("Domain events as JSON")
struct DomainEventCodingTests {
    @Test("an event encodes its time as ISO 8601 whatever the encoder's strategy, and decodes back")
    func coding() throws {
        let event = DomainEvent(
            id: "evt_0123", type: .orderPaid, occurredAt: Date(timeIntervalSince1970: 1_796_463_164.25),
            aggregate: EventAggregate(.order, 42), schemaVersion: 1, data: ["amount": 132_000],
            position: EventPosition(transaction: 0, sequence: 7))
        let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(json.contains(#""occurred_at":"2026-12-05T09:32:44.250Z""#) && json.contains(#""position":"0.7""#), "\(json)")
        #expect(try JSONDecoder().decode(DomainEvent.self, from: Data(json.utf8)) == event)
        let plain = json.replacingOccurrences(of: ".250Z", with: "Z")
        #expect(try JSONDecoder().decode(DomainEvent.self, from: Data(plain.utf8)).occurredAt == Date(timeIntervalSince1970: 1_796_463_164))
    }
}
