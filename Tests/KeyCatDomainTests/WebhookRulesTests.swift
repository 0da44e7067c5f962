import Foundation
import KeyCatDomain
import Testing

/// The webhook rules that need no store: the retry schedule, the body, URLs and secrets.
@Suite("Webhook rules")
struct WebhookRulesTests {
    @Test("the standard schedule is ten attempts over three days and three hours, 5 s after the first failure")
    func schedule() {
        let schedule = WebhookRetrySchedule.standard
        #expect(schedule.maximumAttempts == 10)
        #expect(schedule.delay(afterAttempt: 1) == 5)
        #expect(schedule.delay(afterAttempt: 9) == 86_400)
        #expect(schedule.delay(afterAttempt: 10) == nil)
        let expected: TimeInterval = 3 * 86_400 + 3 * 3_600 + 35 * 60 + 5
        #expect(schedule.span == expected)
    }

    @Test("the body is the documented object, keys in order, the same bytes for the same event")
    func body() throws {
        let event = DomainEvent(
            id: "evt_0123456789abcdef0123456789abcdef", type: .shipmentShipped, occurredAt: Date(timeIntervalSince1970: 1_767_225_600.9),
            aggregate: EventAggregate(.shipment, 12), schemaVersion: 2, data: ["carrier": "CJ대한통운", "tracking": "6100/42"],
            position: nil)
        let text = String(decoding: WebhookPayload.body(for: event), as: UTF8.self)
        #expect(text == #"{"id":"evt_0123456789abcdef0123456789abcdef","type":"shipment.shipped","occurred_at":"2026-01-01T00:00:00Z","#
            + #""aggregate":{"kind":"shipment","id":12},"schema_version":2,"data":{"carrier":"CJ대한통운","tracking":"6100/42"}}"#)
        #expect(WebhookPayload.body(for: event) == WebhookPayload.body(for: event))
        let parsed = try JSONSerialization.jsonObject(with: WebhookPayload.body(for: event)) as? [String: Any]
        #expect(parsed?.keys.sorted() == ["aggregate", "data", "id", "occurred_at", "schema_version", "type"])
    }

    @Test("a URL keeps its path and query for the request, and hosts compare without case, brackets or a final dot")
    func urls() throws {
        let url = try WebhookURL("https://Hooks.Example.com.:8443/in/keycat?tenant=7")
        #expect(url.host == "hooks.example.com")
        #expect(url.port == 8443)
        #expect(url.pathAndQuery == "/in/keycat?tenant=7")
        let local = try WebhookURL("http://[::1]:9000", developmentHosts: ["::1"])
        #expect(local.origin == "http://[::1]:9000")
        #expect(local.pathAndQuery == "/")
        // A host is a DNS name in ASCII or an address, never percent-encoded: a resolver and a
        // connection could read an encoded one apart.
        for host in ["127.0.0.1%2F.example.com", "hooks%2Eexample.com"] {
            #expect(throws: KeyCatError.self, "\(host)") { try WebhookURL("https://\(host)/in") }
        }
        // An international name is resolved in punycode, however it was written.
        #expect(try WebhookURL("https://xn--o39an74b.example/in").host == "xn--o39an74b.example")
        #expect(try WebhookURL("https://키캣.example/in").host == "xn--0c7br0b.example")
    }

    @Test("a secret is whsec_ and 24–64 bytes of base64; it never prints itself")
    func secrets() throws {
        let secret = WebhookSecret(bytes: Array(repeating: 7, count: 32))
        #expect(try WebhookSecret(secret.rawValue) == secret)
        #expect("\(secret)" == "whsec_…")
        #expect(throws: KeyCatError.self) { try WebhookSecret("whsec_" + Data(count: 65).base64EncodedString()) }
        #expect(throws: KeyCatError.self) { try WebhookSecret("whsec_not base64!") }
    }
}
