import Foundation

/// Something that happened in the shop, written in the same transaction as the change it reports
/// (so an event is never lost and never invented), then read in order by subscribers
/// (``EventLog``, `keycat.events(after:)`) and delivered to webhook endpoints.
///
/// `data` is small and says what a receiver needs to act without asking again for the common
/// cases (an order's amount, a parcel's carrier and tracking number), never secrets, and no part
/// of a delivery address: a receiver that needs the address asks the API for the order, under
/// its own credentials. docs/events.md lists every type with its data.
public struct DomainEvent: Sendable, Hashable, Codable, Identifiable {
    /// Unique (`evt_` and 32 hex digits, ``newID()``); a webhook's `webhook-id`, so receivers
    /// deduplicate by it.
    public var id: String
    public var type: EventType
    /// When the change committed's transaction ran (the shop's clock).
    public var occurredAt: Date
    /// The entity the event concerns.
    public var aggregate: EventAggregate
    /// The version of `data`'s shape for this type; it grows only when a field changes meaning
    /// or goes away (adding a field does not).
    public var schemaVersion: Int
    public var data: EventData
    /// Where the event stands in the log; nil until it has been written and read back.
    public var position: EventPosition?

    /// An event with a fresh id, for a repository to write.
    public init(_ type: EventType, at occurredAt: Date, aggregate: EventAggregate, data: EventData, schemaVersion: Int = 1) {
        self.id = Self.newID()
        self.type = type
        self.occurredAt = occurredAt
        self.aggregate = aggregate
        self.schemaVersion = schemaVersion
        self.data = data
        self.position = nil
    }

    /// An event as stored, for the store that reads it back.
    public init(id: String, type: EventType, occurredAt: Date, aggregate: EventAggregate, schemaVersion: Int,
                data: EventData, position: EventPosition?) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.aggregate = aggregate
        self.schemaVersion = schemaVersion
        self.data = data
        self.position = position
    }

    /// `evt_` and 32 hex digits: the system clock's milliseconds (12 digits), then 80 random bits.
    /// Time first, so the ids a shop writes arrive at the end of the index that keeps them
    /// unique instead of at a random page of it (a page less to write per event under load);
    /// 80 bits keep two ids of one millisecond apart.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        func hex(_ value: UInt64, digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let milliseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1_000)) & 0xFFFF_FFFF_FFFF
        return "evt_" + hex(milliseconds, digits: 12) + hex(generator.next() & 0xFFFF_FFFF, digits: 8)
            + hex(generator.next() & 0xFFFF_FFFF_FFFF, digits: 12)
    }

    enum CodingKeys: String, CodingKey {
        case id, type, occurredAt = "occurred_at", aggregate, schemaVersion = "schema_version", data, position
    }

    /// `occurred_at` as ISO 8601 in UTC with milliseconds, whatever the encoder's date strategy:
    /// the same text a webhook receiver reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(occurredAt.formatted(Self.timeFormat), forKey: .occurredAt)
        try container.encode(aggregate, forKey: .aggregate)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(data, forKey: .data)
        try container.encodeIfPresent(position, forKey: .position)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let time = try container.decode(String.self, forKey: .occurredAt)
        guard let occurredAt = (try? Self.timeFormat.parse(time)) ?? (try? Date.ISO8601FormatStyle().parse(time)) else {
            throw DecodingError.dataCorruptedError(forKey: .occurredAt, in: container, debugDescription: "not an ISO 8601 time: \(time)")
        }
        self.init(id: try container.decode(String.self, forKey: .id), type: try container.decode(EventType.self, forKey: .type),
                  occurredAt: occurredAt, aggregate: try container.decode(EventAggregate.self, forKey: .aggregate),
                  schemaVersion: try container.decode(Int.self, forKey: .schemaVersion),
                  data: try container.decode(EventData.self, forKey: .data),
                  position: try container.decodeIfPresent(EventPosition.self, forKey: .position))
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// The entity an event concerns: its kind and id (`order` 42).
public struct EventAggregate: Sendable, Hashable, Codable, CustomStringConvertible {
    public var kind: Kind
    public var id: Int64

    public init(_ kind: Kind, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    public var description: String { "\(kind.rawValue):\(id)" }

    /// The kinds of entity events concern.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case order, shipment, product, review, settlement, user
        case sellerApplication = "seller_application"
    }
}
