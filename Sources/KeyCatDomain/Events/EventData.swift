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

    /// The data as compact JSON with sorted keys (a store may keep the same object spaced and
    /// ordered its own way: data completed from a row in SQL, a trigger's). Written by hand
    /// rather than through `JSONEncoder`: it runs inside the hot writes (a checkout, a confirm),
    /// and the tree is only ever strings, integers, booleans, nulls, lists and objects.
    public func json() -> String {
        var output = ""
        output.reserveCapacity(256)
        EventValue.object(fields).write(to: &output)
        return output
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
    /// A time as ISO 8601 in UTC, to the second (`2026-11-28T09:12:44Z`).
    public static func time(_ date: Date) -> EventValue { .string(iso8601(date)) }

    /// `date` as `yyyy-MM-ddTHH:mm:ssZ`, computed from the Unix time (days to a civil date by
    /// Howard Hinnant's algorithm) rather than through a formatter, which costs tens of
    /// microseconds a call on Linux.
    static func iso8601(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))Z"
    }

    /// Appends the value as JSON, objects' keys sorted.
    func write(to output: inout String) {
        switch self {
        case let .string(value): JSONString.append(value, to: &output)
        case let .integer(value): output += String(value)
        case let .boolean(value): output += value ? "true" : "false"
        case .null: output += "null"
        case let .list(values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case let .object(fields):
            output += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                JSONString.append(key, to: &output)
                output += ":"
                fields[key]?.write(to: &output)
            }
            output += "}"
        }
    }

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
