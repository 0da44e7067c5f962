import Foundation

/// Identifies a buyer's return request.
public struct ReturnRequestID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A buyer's request to return a parcel (반품 요청), possible from the moment it ships until its
/// receipt is confirmed (구매확정). Its seller, or an operator, decides: approving refunds the
/// parcel's lines still held (the goods restocked when the seller says they came back);
/// rejecting says why. A seller's rejection is not the last word: the buyer may dispute it
/// once, within the shop's dispute window, and the shop's operators then rule (the seller may
/// still give in and approve). While a request is open or disputed the parcel is not confirmed.
public struct ReturnRequest: Sendable, Hashable, Codable, Identifiable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Asked for; its seller (or an operator) decides.
        case requested
        case approved
        case rejected
        /// Rejected by its seller, or left undecided for the dispute window, and disputed by the
        /// buyer: an operator rules, approving or rejecting it for good; its seller may still
        /// approve it.
        case disputed
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
    /// Whether the parcel's seller made the rejection (in whatever role they acted) while the
    /// shop took disputes: the kind the buyer may dispute. An operator's rejection is the shop's
    /// word.
    public var rejectedBySeller: Bool
    /// The buyer's words disputing the seller's rejection, and when.
    public var dispute: String?
    public var disputedAt: Date?
    /// The operator's ruling on a dispute, who ruled (the audit log's actor) and when; the
    /// seller's rejection stays in ``decision``.
    public var ruling: String?
    public var ruledBy: String?
    public var ruledAt: Date?
    /// Whether its approval gives the parcel's units back (the goods came back); false while it
    /// is not approved. Approving it again, or reconciliation, refunds as it was approved.
    public var restocks: Bool

    public init(id: ReturnRequestID, shipmentID: ShipmentID, orderID: OrderID, sellerID: UserID, buyerID: UserID, reason: String,
                status: Status, decision: String? = nil, decidedBy: String? = nil, createdAt: Date, decidedAt: Date? = nil,
                refundedAt: Date? = nil, rejectedBySeller: Bool = false, dispute: String? = nil, disputedAt: Date? = nil, ruling: String? = nil, ruledBy: String? = nil,
                ruledAt: Date? = nil, restocks: Bool = false) {
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
        self.rejectedBySeller = rejectedBySeller
        self.dispute = dispute
        self.disputedAt = disputedAt
        self.ruling = ruling
        self.ruledBy = ruledBy
        self.ruledAt = ruledAt
        self.restocks = restocks
    }

    /// Whether this is its seller's rejection, not disputed yet: the one kind a buyer may
    /// dispute (within the shop's window). An operator's rejection, or a ruling on a dispute, is
    /// the shop's word.
    public var isDisputable: Bool {
        status == .rejected && disputedAt == nil && rejectedBySeller
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
