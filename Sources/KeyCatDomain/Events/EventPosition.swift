/// Where an event stands in the log, for a subscriber to resume after: opaque, ordered, and
/// written as text (`0.1042`) for the subscriber to store wherever it keeps its own progress.
///
/// Events are ordered as they commit (on Postgres, by the writing transaction and then the row;
/// an event becomes readable only once every transaction that could come before it has
/// ended, so a reader never skips one that commits late). ``start`` comes before every event.
public struct EventPosition: Sendable, Hashable, Comparable, Codable, LosslessStringConvertible {
    /// The writing transaction on Postgres (its `xid8`), 0 on SQLite.
    public let transaction: UInt64
    /// The event's row.
    public let sequence: Int64

    public init(transaction: UInt64, sequence: Int64) {
        self.transaction = transaction
        self.sequence = sequence
    }

    /// Before every event.
    public static let start = EventPosition(transaction: 0, sequence: 0)

    public static func < (lhs: EventPosition, rhs: EventPosition) -> Bool {
        (lhs.transaction, lhs.sequence) < (rhs.transaction, rhs.sequence)
    }

    public var description: String { "\(transaction).\(sequence)" }

    /// A position from its text; nil for text that is not one.
    public init?(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let transaction = UInt64(parts[0]), let sequence = Int64(parts[1]), sequence >= 0 else {
            return nil
        }
        self.init(transaction: transaction, sequence: sequence)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let position = EventPosition(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an event position: \(text)"))
        }
        self = position
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
