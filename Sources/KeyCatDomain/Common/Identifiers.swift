/// A row id wrapped in a type of its own, so a `ProductID` can never be passed where a `UserID`
/// is expected.
public protocol EntityID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The database row id.
    var rawValue: Int64 { get }
    init(rawValue: Int64)
}

extension EntityID {
    public init(_ rawValue: Int64) { self.init(rawValue: rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Identifies a user account.
public struct UserID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// Identifies a product listing.
public struct ProductID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// Identifies an order.
public struct OrderID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}
