import Foundation

/// What happened, as `noun.verb` (`order.paid`): the name a subscriber and a webhook endpoint
/// select events by. docs/events.md lists each with its `data`.
public struct EventType: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// A buyer checked out: the order exists, its stock is reserved, it awaits payment.
    public static let orderCreated = EventType(rawValue: "order.created")
    /// The order's payment was confirmed.
    public static let orderPaid = EventType(rawValue: "order.paid")
    /// The order was cancelled: before payment (by the buyer, or the window expired), or after
    /// it with a full refund.
    public static let orderCancelled = EventType(rawValue: "order.cancelled")
    /// Money went back to the buyer: the whole order, a parcel, lines or an amount.
    public static let orderRefunded = EventType(rawValue: "order.refunded")
    /// The payment failed or was refused; the order is over and its stock returned.
    public static let paymentFailed = EventType(rawValue: "payment.failed")
    /// A seller handed a parcel to a carrier.
    public static let shipmentShipped = EventType(rawValue: "shipment.shipped")
    /// A parcel reached the buyer.
    public static let shipmentDelivered = EventType(rawValue: "shipment.delivered")
    /// A seller corrected a parcel's carrier or tracking number (송장 수정): the buyer's app shows
    /// the new one.
    public static let shipmentTrackingCorrected = EventType(rawValue: "shipment.tracking_corrected")
    /// The buyer (or the delay) confirmed a delivered parcel's purchase (구매확정): its money is
    /// the seller's to settle.
    public static let shipmentReceiptConfirmed = EventType(rawValue: "shipment.receipt_confirmed")
    /// A buyer asked to return a parcel.
    public static let returnRequested = EventType(rawValue: "return.requested")
    /// A return was approved (by its seller or an operator, or on the buyer's dispute): the
    /// parcel's items still held are refunded (`order.refunded` tells the money).
    public static let returnApproved = EventType(rawValue: "return.approved")
    /// A return was rejected: by its seller (the buyer may dispute it), by an operator, or as
    /// the ruling on a dispute.
    public static let returnRejected = EventType(rawValue: "return.rejected")
    /// A buyer disputed a seller's rejection, or took a request its seller left undecided to the
    /// operators: an operator rules on it.
    public static let returnDisputed = EventType(rawValue: "return.disputed")
    /// A seller's month was closed into a settlement.
    public static let settlementClosed = EventType(rawValue: "settlement.closed")
    /// A listing was created.
    public static let productCreated = EventType(rawValue: "product.created")
    /// A listing's fields changed.
    public static let productUpdated = EventType(rawValue: "product.updated")
    /// A listing was withdrawn (deleted).
    public static let productWithdrawn = EventType(rawValue: "product.withdrawn")
    /// A listing's stock reached zero.
    public static let productOutOfStock = EventType(rawValue: "product.out_of_stock")
    /// A listing that had none has stock again.
    public static let productBackInStock = EventType(rawValue: "product.back_in_stock")
    /// A buyer reviewed a product they bought.
    public static let reviewCreated = EventType(rawValue: "review.created")
    /// A review was removed (by its author or an operator).
    public static let reviewRemoved = EventType(rawValue: "review.removed")
    /// An operator approved a seller application.
    public static let sellerApplicationApproved = EventType(rawValue: "seller_application.approved")
    /// An operator rejected a seller application.
    public static let sellerApplicationRejected = EventType(rawValue: "seller_application.rejected")
    /// An operator suspended an account.
    public static let userSuspended = EventType(rawValue: "user.suspended")
    /// A person withdrew their account: what identified them is erased here, and should be in
    /// every system the shop told about them.
    public static let userWithdrawn = EventType(rawValue: "user.withdrawn")

    /// Every type KeyCat writes, in the order docs/events.md lists them.
    public static let all: [EventType] = [
        .orderCreated, .orderPaid, .orderCancelled, .orderRefunded, .paymentFailed,
        .shipmentShipped, .shipmentDelivered, .shipmentTrackingCorrected, .shipmentReceiptConfirmed,
        .returnRequested, .returnApproved, .returnRejected, .returnDisputed, .settlementClosed,
        .productCreated, .productUpdated, .productWithdrawn, .productOutOfStock, .productBackInStock,
        .reviewCreated, .reviewRemoved, .sellerApplicationApproved, .sellerApplicationRejected,
        .userSuspended, .userWithdrawn,
    ]
}

/// A selection of event types as an operator writes it: a type (`order.paid`), every type of a
/// noun (`shipment.*`), or every type (`*`).
public struct EventPattern: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// - Throws: `validation` on `events` for a pattern that selects no type KeyCat writes.
    public init(_ text: String) throws(KeyCatError) {
        let pattern = text.trimmingCharacters(in: .whitespaces).lowercased()
        rawValue = pattern
        guard EventType.all.contains(where: matches) else {
            throw .validation("events", "no event type matches «\(text)»; the types are in docs/events.md")
        }
    }

    public var description: String { rawValue }

    /// Whether `type` is selected.
    public func matches(_ type: EventType) -> Bool {
        if rawValue == "*" { return true }
        if rawValue.hasSuffix(".*") { return type.rawValue.hasPrefix(rawValue.dropLast()) }
        return type.rawValue == rawValue
    }

    /// Patterns from a comma-separated list (`order.paid,shipment.*`).
    ///
    /// - Throws: `validation` on `events` when the list is empty or a pattern selects nothing.
    public static func list(_ text: String) throws(KeyCatError) -> [EventPattern] {
        var patterns: [EventPattern] = []
        for part in text.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            let pattern = try EventPattern(String(part))
            if !patterns.contains(pattern) { patterns.append(pattern) }
        }
        guard !patterns.isEmpty else { throw .validation("events", "name at least one event type, or *") }
        return patterns
    }
}
