import Foundation

/// An event's `data`: a small JSON object of strings, integers, booleans, nulls, lists and
/// nested objects. Amounts are integers of won; times are ISO 8601 strings in UTC.
public struct EventData: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral {
    public var fields: [String: EventValue]

    public init(_ fields: [String: EventValue]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, EventValue)...) {
        fields = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    public subscript(key: String) -> EventValue? { fields[key] }

    public init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([String: EventValue].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }

    /// The data as compact JSON with sorted keys, as stored and as delivered.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A tree of strings, numbers and booleans always encodes.
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    /// Data read back from ``json()``.
    ///
    /// - Throws: `internal` when the text is not a JSON object.
    public static func decoding(_ json: String) throws(KeyCatError) -> EventData {
        do {
            return try JSONDecoder().decode(EventData.self, from: Data(json.utf8))
        } catch {
            throw KeyCatError(.internalError, "an event's data is not a JSON object")
        }
    }
}

/// One value of ``EventData``.
public enum EventValue: Sendable, Hashable, Codable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
    case list([EventValue])
    case object([String: EventValue])
    case null

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: EventValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, EventValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// An amount in won.
    public static func won(_ money: Money) -> EventValue { .integer(money.won) }
    /// A time as ISO 8601 in UTC, to the second.
    public static func time(_ date: Date) -> EventValue { .string(date.formatted(.iso8601)) }
    /// A string, or null for nil.
    public static func optional(_ text: String?) -> EventValue { text.map(EventValue.string) ?? .null }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([EventValue].self) {
            self = .list(value)
        } else {
            self = .object(try container.decode([String: EventValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .boolean(value): try container.encode(value)
        case let .list(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
