import Foundation

/// The body of every delivery (docs/webhooks.md "The body"): one JSON object,
///
/// ```json
/// {"id":"evt_…","type":"order.paid","occurred_at":"2026-11-28T13:00:00Z",
///  "aggregate":{"kind":"order","id":42},"schema_version":1,"data":{…}}
/// ```
///
/// with keys in that order, `occurred_at` in ISO 8601 UTC to the second, and `data` as the event
/// stores it (compact, keys sorted). The same event always makes the same bytes, so a replay's
/// body equals the first delivery's.
public enum WebhookPayload {
    /// The largest body KeyCat sends; an event whose body is larger fails without a request.
    public static let maximumBodyBytes = 256 * 1_024

    /// The body for `event`.
    public static func body(for event: DomainEvent) -> Data {
        var json = "{\"id\":" + quoted(event.id)
        json += ",\"type\":" + quoted(event.type.rawValue)
        json += ",\"occurred_at\":" + quoted(event.occurredAt.formatted(.iso8601))
        json += ",\"aggregate\":{\"kind\":" + quoted(event.aggregate.kind.rawValue) + ",\"id\":\(event.aggregate.id)}"
        json += ",\"schema_version\":\(event.schemaVersion)"
        json += ",\"data\":" + event.data.json() + "}"
        return Data(json.utf8)
    }

    /// A JSON string literal.
    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(text), as: UTF8.self)) ?? "\"\""
    }
}
