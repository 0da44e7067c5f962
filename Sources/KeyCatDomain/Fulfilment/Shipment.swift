import Foundation

/// Identifies a shipment.
public struct ShipmentID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// Where one seller's parcel of an order is.
///
/// ```
/// pending → shipped (carrier, tracking number) → delivered
/// pending → cancelled      (the order closed unpaid, was cancelled or refunded before
///                           shipping, or every line of the shipment was refunded)
/// ```
/// A shipment that left stays shipped or delivered whatever is refunded afterwards: those goods
/// moved, and returns are the refund's business.
public enum ShipmentStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case pending
    case shipped
    case delivered
    case cancelled

    /// Every legal move, as data.
    public static let transitions: [ShipmentStatus: Set<ShipmentStatus>] = [
        .pending: [.shipped, .cancelled],
        .shipped: [.delivered],
        .delivered: [],
        .cancelled: [],
    ]

    /// Throws ``KeyCatError/Code/illegalTransition`` unless the table allows `self → next`.
    public func checkMove(to next: ShipmentStatus) throws(KeyCatError) {
        guard Self.transitions[self]?.contains(next) ?? false else {
            throw KeyCatError(.illegalTransition, "a shipment that is \(rawValue) cannot become \(next.rawValue)",
                              context: ["from": rawValue, "to": next.rawValue])
        }
    }
}

/// One seller's part of an order: the lines of that seller's products, one parcel, one
/// delivery fee.
///
/// **Delivery fees are bundled per seller**: a shipment charges the highest delivery fee among
/// its lines, once, however many lines it carries (묶음배송, as Korean open markets charge). Each
/// line keeps the fee its listing had, for the record.
public struct Shipment: Sendable, Hashable, Codable, Identifiable {
    public var id: ShipmentID
    public var orderID: OrderID
    public var sellerID: UserID
    public var status: ShipmentStatus
    public var deliveryFee: Money
    /// The carrier's code (``Carrier/code``) once shipped.
    public var carrier: String?
    public var trackingNumber: String?
    /// The positions in the order's ``Order/lines`` this shipment carries.
    public var lines: [Int]
    public var shippedAt: Date?
    public var deliveredAt: Date?
    /// When the buyer confirmed receipt (구매확정), or it was confirmed for them a set time after
    /// delivery: from then on the parcel's sale is its seller's to be paid, it can be reviewed,
    /// and no return can be asked for (docs/marketplace.md, "Purchase confirmation").
    public var confirmedAt: Date?
    /// What its carrier last said of it, when the shop tracks parcels (``ParcelTracker``); nil
    /// until the carrier was asked.
    public var carrierStatus: CarrierStatus?
    /// When its carrier says it was delivered. With a tracker, this, not ``deliveredAt`` (which
    /// may be its seller's word), starts the buyer's time to confirm or return it.
    public var carrierDeliveredAt: Date?
    /// When its seller last corrected its carrier or tracking number
    /// (``OrderService/correctTracking(of:carrier:trackingNumber:by:)``): a carrier's delivery of
    /// the new number from before then is another parcel's.
    public var trackingCorrectedAt: Date?
    /// When KeyCat learnt of its carrier's delivery (the tracking run that heard it; nil until
    /// then). A delivery learnt late (the tracking service down) still leaves the buyer their
    /// time: a rejection of their return is disputable for the window from the later of the two.
    public var carrierNoticedAt: Date?

    public init(id: ShipmentID, orderID: OrderID, sellerID: UserID, status: ShipmentStatus, deliveryFee: Money,
                carrier: String? = nil, trackingNumber: String? = nil, lines: [Int], shippedAt: Date? = nil,
                deliveredAt: Date? = nil, confirmedAt: Date? = nil, carrierStatus: CarrierStatus? = nil,
                carrierDeliveredAt: Date? = nil, trackingCorrectedAt: Date? = nil, carrierNoticedAt: Date? = nil) {
        self.confirmedAt = confirmedAt
        self.carrierNoticedAt = carrierNoticedAt
        self.trackingCorrectedAt = trackingCorrectedAt
        self.carrierStatus = carrierStatus
        self.carrierDeliveredAt = carrierDeliveredAt
        self.id = id
        self.orderID = orderID
        self.sellerID = sellerID
        self.status = status
        self.deliveryFee = deliveryFee
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.lines = lines
        self.shippedAt = shippedAt
        self.deliveredAt = deliveredAt
    }

    /// Whether the parcel left its seller (shipped or delivered): its goods are with the carrier
    /// or the buyer, so no cancel takes it back and no refund restocks it unless its seller says
    /// the goods came back.
    public var hasLeft: Bool { status == .shipped || status == .delivered }

    /// The fee a seller's lines are charged together: the highest of their fees.
    public static func bundledFee(of fees: [Money]) -> Money { fees.max() ?? .zero }

    /// One seller's lines of an order about to be made, and the fee they are charged together.
    public struct Parcel: Sendable, Hashable {
        public var sellerID: UserID?
        public var deliveryFee: Money
        /// Positions in the order's lines.
        public var lines: [Int]
    }

    /// `lines` grouped by seller, in the order their sellers first appear, each parcel charged
    /// ``bundledFee(of:)`` of its lines: the rule checkout prices by, the store writes and the
    /// cart shows.
    ///
    /// - Parameter isIncluded: which lines count (the cart leaves out those that cannot be
    ///   bought); a parcel's positions are still positions in `lines`.
    public static func parcels<Line: ParcelLine>(of lines: [Line], including isIncluded: (Line) -> Bool = { _ in true }) -> [Parcel] {
        var parcels: [Parcel] = []
        for (position, line) in lines.enumerated() where isIncluded(line) {
            if let index = parcels.firstIndex(where: { $0.sellerID == line.sellerID }) {
                parcels[index].lines.append(position)
                parcels[index].deliveryFee = bundledFee(of: [parcels[index].deliveryFee, line.deliveryFee])
            } else {
                parcels.append(Parcel(sellerID: line.sellerID, deliveryFee: line.deliveryFee, lines: [position]))
            }
        }
        return parcels
    }
}

/// A line that goes into a parcel: its seller's, carrying its product's delivery fee. Order lines
/// and cart lines both are, so the cart charges the fees checkout will.
public protocol ParcelLine {
    /// The listing's seller; lines of one seller share a parcel.
    var sellerID: UserID? { get }
    /// The product's own delivery fee; its parcel charges the highest of its lines'.
    var deliveryFee: Money { get }
}

extension OrderLine: ParcelLine {}

/// How far an order's goods have gone, from its shipments.
public enum Fulfilment: String, Sendable, Hashable, CaseIterable, Codable {
    /// Nothing has left yet (or the order is not paid).
    case unfulfilled
    /// Some shipments left, some are pending.
    case partiallyShipped = "partially_shipped"
    /// Every live shipment left; not all arrived.
    case shipped
    /// Every live shipment arrived.
    case delivered
    /// No shipment will move (all cancelled).
    case cancelled

    /// The table from shipments to the order's fulfilment, counting only live shipments (not
    /// cancelled):
    ///
    /// | live shipments                          | fulfilment          | order status (when paid, shipped or delivered) |
    /// |-----------------------------------------|---------------------|------------------------------------------------|
    /// | none                                    | `cancelled`         | unchanged                                      |
    /// | all pending                             | `unfulfilled`       | `paid`                                         |
    /// | some pending, some shipped or delivered | `partially_shipped` | `paid`                                         |
    /// | none pending, some shipped              | `shipped`           | `shipped`                                      |
    /// | all delivered                           | `delivered`         | `delivered`                                    |
    ///
    /// An order that is `partially_refunded` keeps that status (the money's state wins); its
    /// fulfilment still says where the goods are.
    public static func of(_ statuses: [ShipmentStatus]) -> Fulfilment {
        let live = statuses.filter { $0 != .cancelled }
        if live.isEmpty { return .cancelled }
        if live.allSatisfy({ $0 == .delivered }) { return .delivered }
        if live.allSatisfy({ $0 == .pending }) { return .unfulfilled }
        return live.contains(.pending) ? .partiallyShipped : .shipped
    }

    /// The status an order in `paid`, `shipped` or `delivered` takes with this fulfilment, or nil
    /// to keep its own.
    public var orderStatus: OrderStatus? {
        switch self {
        case .unfulfilled, .partiallyShipped: .paid
        case .shipped: .shipped
        case .delivered: .delivered
        case .cancelled: nil
        }
    }
}

extension KeyCatError {
    /// `already_shipped` (409): a buyer's cancel met a parcel that has left.
    package static func parcelLeft(_ shipment: Shipment) -> KeyCatError {
        KeyCatError(.alreadyShipped, """
            shipment \(shipment.id) of order \(shipment.orderID) is \(shipment.status.rawValue): what has left cannot be \
            cancelled; cancel the parcels still pending, or ask its seller for a return
            """, context: ["shipment_id": "\(shipment.id)", "status": shipment.status.rawValue])
    }
}
