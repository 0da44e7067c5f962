import Foundation

/// Identifies a buyer's return request.
public struct ReturnRequestID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A buyer's request to return a parcel (반품 요청), possible from the moment it ships until its
/// receipt is confirmed (구매확정). Its seller, or an operator, decides: approving refunds the
/// parcel's lines still held (the goods restocked when the seller says they came back);
/// rejecting says why. While a request is open the parcel is not confirmed automatically.
public struct ReturnRequest: Sendable, Hashable, Codable, Identifiable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case requested
        case approved
        case rejected
    }

    public var id: ReturnRequestID
    public var shipmentID: ShipmentID
    public var orderID: OrderID
    public var sellerID: UserID
    public var buyerID: UserID
    /// The buyer's reason.
    public var reason: String
    public var status: Status
    /// The seller's or operator's answer: why it was rejected, or a note with the approval.
    public var decision: String?
    /// Who decided (the audit log's actor).
    public var decidedBy: String?
    public var createdAt: Date
    public var decidedAt: Date?
    /// When an approval's refund was seen through; nil while it has not gone through (or for a
    /// request not approved).
    public var refundedAt: Date?

    public init(id: ReturnRequestID, shipmentID: ShipmentID, orderID: OrderID, sellerID: UserID, buyerID: UserID, reason: String,
                status: Status, decision: String? = nil, decidedBy: String? = nil, createdAt: Date, decidedAt: Date? = nil,
                refundedAt: Date? = nil) {
        self.id = id
        self.shipmentID = shipmentID
        self.orderID = orderID
        self.sellerID = sellerID
        self.buyerID = buyerID
        self.reason = reason
        self.status = status
        self.decision = decision
        self.decidedBy = decidedBy
        self.createdAt = createdAt
        self.decidedAt = decidedAt
        self.refundedAt = refundedAt
    }
}

/// Who confirmed a parcel's receipt.
public enum ReceiptConfirmation: String, Sendable, Hashable, CaseIterable {
    /// The buyer, in the app.
    case buyer
    /// An operator, for the buyer (a phone call, a dispute settled).
    case `operator`
    /// Reconciliation, the confirmation delay after delivery.
    case auto
}
