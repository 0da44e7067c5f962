/// How a listing is sold.
public enum ProductKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// New stock from a shop.
    case commercial
    /// Used goods from a member.
    case secondhand
    /// A group buy: paid now, made and shipped later.
    case groupBuy = "group_buy"
}

/// What a listing is.
public enum ProductCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case keyboard, keycap, `switch`, accessory
}

/// When the parcel leaves.
public enum DeliverySchedule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Ordinary parcel service.
    case standard
    /// Same-day delivery.
    case today
    /// Delivered before dawn the next day (새벽배송).
    case nextDawn = "next_dawn"
    /// Next-day delivery.
    case nextDay = "next_day"
}

/// The delivery terms of a listing.
public struct Delivery: Sendable, Hashable, Codable {
    /// What the buyer pays for delivery, per order line.
    public var fee: Money
    public var schedule: DeliverySchedule

    public init(fee: Money, schedule: DeliverySchedule) {
        self.fee = fee
        self.schedule = schedule
    }
}
