import Foundation

/// Where users' address books are kept.
public protocol AddressRepository: Sendable {
    /// The user's addresses, the default first, then newest first.
    func addresses(of user: UserID) async throws(KeyCatError) -> [SavedAddress]
    func find(_ id: AddressID) async throws(KeyCatError) -> SavedAddress?
    /// Adds an address; it becomes the default when `makeDefault` or when it is the user's first.
    ///
    /// - Throws: `limitReached` when the user already keeps `limit`: the request is good, the
    ///   book is full (409, like other state a request cannot change).
    func add(_ address: DeliveryAddress, for user: UserID, makeDefault: Bool, limit: Int, at now: Date) async throws(KeyCatError) -> SavedAddress
    /// Replaces an address of `user` (nil: no such address of theirs). `isDefault` true makes it
    /// the default in the same transaction; false clears it; nil leaves it.
    func update(_ id: AddressID, of user: UserID, to address: DeliveryAddress, isDefault: Bool?, at now: Date) async throws(KeyCatError) -> SavedAddress?
    /// Deletes an address of `user`. Orders keep their own copies, so nothing else changes.
    func delete(_ id: AddressID, of user: UserID) async throws(KeyCatError) -> Bool
}

/// A move of one shipment, with everything that must commit with it.
/// How a parcel takes a tracking number, for the check that a number names one parcel
/// (``FulfilmentRepository/numberIsTaken(_:_:besides:_:)``).
public struct NumberUse: Sendable, Hashable {
    /// A parcel given the number before this holds it no more: carriers issue numbers again.
    public var heldSince: Date
    /// The operator's move of a whole order (one box): the order's other parcels may carry the
    /// number too. Otherwise only a parcel from the same seller to the same buyer at the same
    /// address may (합포장); two sellers' parcels are never one box.
    public var sharedWithOrder: Bool

    public init(heldSince: Date, sharedWithOrder: Bool = false) {
        self.heldSince = heldSince
        self.sharedWithOrder = sharedWithOrder
    }
}

public struct ShipmentMove: Sendable {
    public var shipmentID: ShipmentID
    public var from: ShipmentStatus
    public var to: ShipmentStatus
    public var carrier: Carrier?
    public var trackingNumber: String?
    /// Moving to `delivered` on its carrier's word: when the carrier delivered it, which becomes
    /// both its delivery time and its carrier's (nil: delivered now, on its seller's word).
    public var carrierDeliveredAt: Date?
    /// With ``carrierDeliveredAt``: when the parcel was claimed to be asked about; the move
    /// happens only if no correction of its number came since (which resets the claim).
    public var trackingClaimedAt: Date?
    /// Moving to `shipped` with a number: the move happens only if the number is not taken
    /// (``FulfilmentRepository/numberIsTaken(_:_:besides:_:)``).
    public var numberUse: NumberUse?
    public var audit: AuditEntry?

    public init(shipmentID: ShipmentID, from: ShipmentStatus, to: ShipmentStatus) {
        self.shipmentID = shipmentID
        self.from = from
        self.to = to
    }
}

/// An order as the seller of some of its lines sees it: their lines and shipment, where it
/// goes, and the buyer by nick (never their email).
public struct SellerOrder: Sendable {
    public var orderID: OrderID
    public var merchantUID: String
    public var status: OrderStatus
    public var buyerNick: String
    /// The seller's shipment of the order.
    public var shipment: Shipment
    /// The seller's lines, with their positions in the order.
    public var lines: [(position: Int, line: OrderLine)]
    /// Where the parcel goes: nil for an order without an address, and once the seller's parcel
    /// is cancelled (it never left, and now never will, so its seller has no need of it).
    public var shippingAddress: DeliveryAddress?
    public var createdAt: Date
    public var paidAt: Date?

    public init(orderID: OrderID, merchantUID: String, status: OrderStatus, buyerNick: String, shipment: Shipment,
                lines: [(position: Int, line: OrderLine)], shippingAddress: DeliveryAddress?, createdAt: Date, paidAt: Date?) {
        self.orderID = orderID
        self.merchantUID = merchantUID
        self.status = status
        self.buyerNick = buyerNick
        self.shipment = shipment
        self.lines = lines
        self.shippingAddress = shippingAddress
        self.createdAt = createdAt
        self.paidAt = paidAt
    }
}

/// Shipments, the sellers' view of orders, line refunds and the anonymising of addresses.
public protocol FulfilmentRepository: Sendable {
    func shipment(_ id: ShipmentID) async throws(KeyCatError) -> Shipment?

    /// Moves a shipment if it is still in `move.from` and its order still holds a payment with
    /// no refund pending, then sets the order's status from its shipments (``Fulfilment``), all
    /// in one transaction.
    ///
    /// - Returns: whether this call moved it (false: it or its order moved first).
    func apply(_ move: ShipmentMove, at now: Date) async throws(KeyCatError) -> Bool

    /// Paid orders (and later) holding `seller`'s lines, newest first, strictly after `position`
    /// (creation time in milliseconds, order id), optionally only those whose shipment is in
    /// `status`.
    func sellerOrders(_ seller: UserID, status: ShipmentStatus?, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [SellerOrder]

    /// Starts a refund of some lines of one shipment, as ``OrderRepository/beginRefund`` does for
    /// the balance: in one transaction, checks the order is still `expectedStatus`, no refund is
    /// pending, the lines are the shipment's and not refunded yet, and records the refund
    /// `pending` for their total (and the shipment's fee when no line of it is left to send and
    /// it has not shipped). Completing it (``OrderRepository/completeRefund``) marks the lines
    /// refunded, gives their units back when `restock`, and cancels a shipment left empty.
    ///
    /// `cancelling`: the buyer's cancel of a parcel, refused with `already_shipped` unless the
    /// shipment is still pending when the refund is recorded. `bySeller`: its seller's refund,
    /// refused with `illegal_transition` once the parcel's receipt is confirmed when the refund
    /// is recorded (confirmation by time may land between the caller's read and this write).
    func beginLineRefund(orderID: OrderID, expectedStatus: OrderStatus, shipmentID: ShipmentID, lines: [Int], amount: Money?, reason: String,
                         restock: Bool, cancelling: Bool, bySeller: Bool, requestKey: String?, requestFingerprint: String?,
                         requestedBy: String, at now: Date) async throws(KeyCatError) -> Refund

    /// Confirms a delivered parcel's receipt if it is still delivered, unconfirmed and has no open
    /// return request, with `audit`, in one transaction.
    ///
    /// - Returns: whether this call confirmed it.
    func confirmReceipt(of shipment: ShipmentID, by who: ReceiptConfirmation, audit: AuditEntry, at now: Date) async throws(KeyCatError) -> Bool

    /// Confirms the receipt of parcels delivered before `cutoff` and still unconfirmed with no
    /// open or disputed return request, nor a seller's rejection the buyer may still dispute
    /// (made, or its parcel delivered, after `rejectedSince`), oldest first, at most `limit`,
    /// each audited `shipment.confirm` by the system.
    ///
    /// - Returns: how many it confirmed.
    ///
    /// `tracking`, when the shop tracks parcels: the delivery that counts is the carrier's
    /// (``Shipment/carrierDeliveredAt``) before `cutoff`, learnt before
    /// ``TrackingCutoffs/noticedBefore``; a parcel no carrier has said was delivered is confirmed
    /// only once it also shipped before ``TrackingCutoffs/untrackedShippedBefore``, and a
    /// rejection of its return stays disputable until then.
    func confirmDelivered(before cutoff: Date, rejectedSince: Date, tracking: TrackingCutoffs?, limit: Int,
                          at now: Date) async throws(KeyCatError) -> Int

    /// Claims the parcels to ask their carriers about, marking them asked `now` so no other run
    /// (of this server or another) asks them before their turn comes again: those that left and
    /// are not confirmed, of orders still holding their payment, with no delivery from their
    /// carrier, last asked at or before `due.checkedBefore` — or, once they shipped before
    /// `due.slowShippedBefore`, at or before `due.slowCheckedBefore` — the longest unasked first
    /// (never asked before all), at most `limit`.
    func claimParcelsToTrack(_ due: TrackingDue, limit: Int, at now: Date) async throws(KeyCatError) -> [Shipment]

    /// Records what a parcel's carrier said (`carrierDeliveredAt` with `.delivered`), with `audit`
    /// when there is one, in one transaction, unless a delivery from its carrier is recorded
    /// already or the parcel is no longer as claimed at `claimedAt` (its number corrected since).
    ///
    /// - Returns: whether it recorded it.
    func recordTracking(of shipment: ShipmentID, status: CarrierStatus, carrierDeliveredAt: Date?, audit: AuditEntry?,
                        claimedAt: Date) async throws(KeyCatError) -> Bool

    /// Replaces a parcel's carrier and tracking number (and the order's copy of them, when it
    /// names the old ones) if it left, is not confirmed, no carrier reported it delivered and the
    /// new number is not taken (``numberIsTaken(_:_:besides:_:)``); what its carrier said is
    /// forgotten, so the next run asks about the new number first.
    ///
    /// - Returns: whether it was corrected.
    func correctTracking(of shipment: ShipmentID, carrier: Carrier, trackingNumber: String, use: NumberUse, audit: AuditEntry,
                         at now: Date) async throws(KeyCatError) -> Bool

    /// Whether `carrier`'s `trackingNumber` is on another parcel than `shipment`, given it (shipped
    /// with it, or corrected to it) at or after `use.heldSince`, of an order not refunded or
    /// cancelled — other than a parcel from the same seller to the same buyer at the same
    /// address (the one box holding both orders, 합포장) or, with `use.sharedWithOrder`, a parcel
    /// of the same order.
    func numberIsTaken(_ carrier: Carrier, _ trackingNumber: String, besides shipment: ShipmentID,
                       _ use: NumberUse) async throws(KeyCatError) -> Bool

    /// Records a buyer's return request for a parcel that left and is not confirmed, in one
    /// transaction that checks both.
    ///
    /// - Throws: `duplicate` while another request of the parcel is open; `illegalTransition`
    ///   when the parcel is not shipped or delivered, or already confirmed.
    func requestReturn(of shipment: ShipmentID, reason: String, audit: AuditEntry, at now: Date) async throws(KeyCatError) -> ReturnRequest

    func returnRequest(_ id: ReturnRequestID) async throws(KeyCatError) -> ReturnRequest?

    /// Moves an open request to `status` with the decision (and, approving, whether its refund
    /// restocks; rejecting, whether its seller made the rejection, `bySeller`, which the buyer
    /// may then dispute), if it is still open.
    ///
    /// - Returns: the request as decided, or nil when it was not open any more.
    func decideReturn(_ id: ReturnRequestID, _ status: ReturnRequest.Status, decision: String?, restock: Bool, bySeller: Bool,
                      audit: AuditEntry, at now: Date) async throws(KeyCatError) -> ReturnRequest?

    /// Moves a seller's rejection to `disputed` with the buyer's words, if it is still that
    /// rejection, undisputed, made or its parcel delivered after `rejectedSince` (or its parcel
    /// not delivered yet) — or a request still undecided, asked for at or before
    /// `rejectedSince` — its parcel not confirmed and its order still holding its payment, with
    /// `audit`, in one transaction.
    ///
    /// - Returns: the request as disputed, or nil when one of those no longer holds.
    func disputeReturn(_ id: ReturnRequestID, dispute: String, rejectedSince: Date, tracking: TrackingCutoffs?, audit: AuditEntry,
                       at now: Date) async throws(KeyCatError) -> ReturnRequest?

    /// Moves a disputed request to `status` (`approved`, with whether its refund restocks, or
    /// `rejected`) with the ruling's words, if it is still disputed, with `audit`, in one
    /// transaction. The seller's rejection stays on the record beside the ruling.
    ///
    /// - Returns: the request as ruled, or nil when it was not disputed any more.
    func ruleOnDispute(_ id: ReturnRequestID, _ status: ReturnRequest.Status, ruling: String?, restock: Bool, audit: AuditEntry,
                       at now: Date) async throws(KeyCatError) -> ReturnRequest?

    /// Approved requests whose refund has not been recorded as gone through, those never tried
    /// again first, then the least recently tried.
    func approvedReturnsAwaitingRefund(limit: Int) async throws(KeyCatError) -> [ApprovedReturn]

    /// Records that reconciliation tried an approved request's refund again, and it failed.
    func markReturnRefundTried(_ id: ReturnRequestID, at now: Date) async throws(KeyCatError)

    /// Records that an approved request's parcel is refunded.
    func markReturnRefunded(_ id: ReturnRequestID, at now: Date) async throws(KeyCatError)

    /// Sees an approved return through when its parcel's lines not refunded yet hold nothing
    /// (earlier refunds of parts of its value gave it all back): they are marked refunded, their
    /// units returned when `restock`, and the request recorded refunded, with `audit`, in one
    /// transaction and with no money moved.
    ///
    /// - Returns: false, changing nothing, when a line still holds money (a refund is due) or
    ///   none is left unrefunded.
    func closeReturnHoldingNothing(_ request: ReturnRequest, restock: Bool, audit: AuditEntry,
                                   at now: Date) async throws(KeyCatError) -> Bool

    /// Return requests newest first (by id), strictly before `before`: a seller's (nil: every
    /// seller's), optionally only those in `status`.
    func returnRequests(seller: UserID?, status: ReturnRequest.Status?, before: ReturnRequestID?,
                        limit: Int) async throws(KeyCatError) -> [ReturnRequest]

    /// The return requests of one order, oldest first.
    func returnRequests(of order: OrderID) async throws(KeyCatError) -> [ReturnRequest]

    /// Blanks the shipping addresses of orders whose last shipment was delivered (or which
    /// closed) before `cutoff`, keeping the postcode's district; at most `limit`.
    ///
    /// - Returns: how many it anonymised.
    func anonymiseAddresses(closedBefore cutoff: Date, limit: Int, at now: Date) async throws(KeyCatError) -> Int
}

/// An approved return request whose refund has not been recorded as gone through, as
/// reconciliation finds it.
public struct ApprovedReturn: Sendable, Hashable {
    public var id: ReturnRequestID
    /// Whether the approval gives the units back.
    public var restock: Bool
    /// Every line of its parcel is refunded, or its whole order was (cancelled or refunded in
    /// full): only the record is missing.
    public var refunded: Bool
    /// A refund of its order is pending: reconciliation settles that first.
    public var refundPending: Bool

    public init(id: ReturnRequestID, restock: Bool, refunded: Bool, refundPending: Bool) {
        self.id = id
        self.restock = restock
        self.refunded = refunded
        self.refundPending = refundPending
    }
}
