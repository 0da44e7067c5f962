import Foundation

/// An order about to be created: what checkout computed.
public struct NewOrder: Sendable, Hashable {
    public var merchantUID: String
    public var buyerID: UserID
    public var lines: [OrderLine]
    public var itemsTotal: Money
    public var deliveryTotal: Money
    public var amount: Money
    public var expiresAt: Date
    /// What the buyer may hold unpaid; the store checks it in the transaction that takes the
    /// stock. Nil: no caps.
    public var holdLimits: StockHoldLimits?
    /// The checkout's `Idempotency-Key`, kept on the order itself (unique per buyer), so a retry
    /// finds the order even when the key's stored answer was lost.
    public var requestKey: String?
    /// The address the order ships to, copied onto it.
    public var shippingAddress: DeliveryAddress?

    public init(merchantUID: String, buyerID: UserID, lines: [OrderLine], itemsTotal: Money, deliveryTotal: Money,
                amount: Money, expiresAt: Date, requestKey: String? = nil, holdLimits: StockHoldLimits? = nil) {
        self.merchantUID = merchantUID
        self.buyerID = buyerID
        self.lines = lines
        self.itemsTotal = itemsTotal
        self.deliveryTotal = deliveryTotal
        self.amount = amount
        self.expiresAt = expiresAt
        self.holdLimits = holdLimits
        self.requestKey = requestKey
    }
}

/// A move of one order from one status to another, with everything that must commit with it.
/// The move happens only if the order is still in `from` (a conditional update): of two racing
/// moves, exactly one wins.
public struct OrderTransition: Sendable {
    public var orderID: OrderID
    public var from: OrderStatus
    public var to: OrderStatus
    /// Only move if the reservation expired at or before this time.
    public var onlyIfExpiredBy: Date?
    /// A payment to record with the move (unique by `impUID`).
    public var payment: OrderPayment?
    /// Give the order's units back to stock.
    public var returnsStock = false
    /// Remove the order's products from the buyer's cart.
    public var clearsCart = false
    public var carrier: String?
    public var trackingNumber: String?
    /// Only move if no refund of the order is pending: a buyer's cancel (a full refund) racing
    /// the shipment must not end with goods on their way and the money on its way back.
    public var requiresNoPendingRefund = false
    /// Forget the checkout key the order was made with: its checkout failed (the PG never learnt
    /// the amount), so a retry with the key must make a new order, not replay this one.
    public var releasesRequestKey = false
    public var audit: AuditEntry?

    public init(orderID: OrderID, from: OrderStatus, to: OrderStatus) {
        self.orderID = orderID
        self.from = from
        self.to = to
    }
}

/// Which orders a list shows: every condition given must hold.
///
/// The placing window is half-open, `[placedFrom, placedBefore)`, over the instant the order
/// was created, compared in the milliseconds the stores keep (a bound rounded as an order's
/// time is when stored, so an order placed at a bound's instant is in the window it opens):
/// two adjacent windows never share an order, and a day in Korean time is
/// `[00:00 KST, next 00:00 KST)`.
public struct OrderFilter: Sendable, Hashable {
    public var status: OrderStatus?
    public var buyerID: UserID?
    /// Only orders holding a parcel (lines) of this seller. A seller with no parcels, or no such
    /// user, gives an empty list, not an error.
    public var sellerID: UserID?
    /// Only orders placed at or after this instant.
    public var placedFrom: Date?
    /// Only orders placed before this instant.
    public var placedBefore: Date?

    public init(status: OrderStatus? = nil, buyerID: UserID? = nil, sellerID: UserID? = nil,
                placedFrom: Date? = nil, placedBefore: Date? = nil) {
        self.status = status
        self.buyerID = buyerID
        self.sellerID = sellerID
        self.placedFrom = placedFrom
        self.placedBefore = placedBefore
    }

    /// ``placedFrom`` in the milliseconds the stores compare (`created_at >= `).
    package var placedFromMilliseconds: Int64? { placedFrom?.millisecondsSince1970 }
    /// ``placedBefore`` in the milliseconds the stores compare (`created_at < `).
    package var placedBeforeMilliseconds: Int64? { placedBefore?.millisecondsSince1970 }

    /// Checks the window: it must hold some time.
    ///
    /// - Throws: `validation` naming `placed_from` when it is not before `placed_before`.
    public func validate() throws(KeyCatError) {
        if let from = placedFromMilliseconds, let before = placedBeforeMilliseconds, from >= before {
            throw .validation("placed_from", "placed_from must be before placed_before")
        }
    }

    /// Binds cursors to these filters: a cursor made under one filter is refused under another.
    /// A filter by status and buyer alone keeps the text it had before the seller and the
    /// window, so the cursors of a running walk survive an upgrade.
    var fingerprint: String {
        func field(_ value: String?) -> String { value ?? "*" }
        let base = "\(field(status?.rawValue))|\(field(buyerID.map(String.init(describing:))))"
        guard sellerID != nil || placedFrom != nil || placedBefore != nil else { return base }
        return base + "|s=\(field(sellerID.map(String.init(describing:))))"
            + "|from=\(field(placedFromMilliseconds.map(String.init)))|before=\(field(placedBeforeMilliseconds.map(String.init)))"
    }
}

/// Whose an order is, what it costs and where it stands: an order's own row without its lines,
/// parcels or address, for the checks a payment's confirmation makes before it asks the PG.
public struct OrderStanding: Sendable, Hashable {
    public var id: OrderID
    public var merchantUID: String
    public var buyerID: UserID
    public var amount: Money
    public var status: OrderStatus
    /// The PG payment that paid it.
    public var impUID: String?
    /// When its reservation ends: a payment made later does not pay it.
    public var expiresAt: Date

    public init(id: OrderID, merchantUID: String, buyerID: UserID, amount: Money, status: OrderStatus, impUID: String?,
                expiresAt: Date = .distantFuture) {
        self.id = id
        self.merchantUID = merchantUID
        self.buyerID = buyerID
        self.amount = amount
        self.status = status
        self.impUID = impUID
        self.expiresAt = expiresAt
    }

    /// `order`'s standing.
    public init(_ order: Order) {
        self.init(id: order.id, merchantUID: order.merchantUID, buyerID: order.buyerID, amount: order.amount,
                  status: order.status, impUID: order.impUID, expiresAt: order.expiresAt)
    }
}

/// Where orders, their payments and refunds are kept. Implementations: `SQLOrderRepository`
/// and `InMemoryOrderRepository`.
public protocol OrderRepository: Sendable {
    /// Takes every line's units from stock and creates the order, all in one transaction: a
    /// line whose product has fewer units left (or is no longer listed) fails the whole order.
    /// A product found short first releases its reservations that expired by `now` (orders
    /// awaiting payment past `expires_at`, whose PG outcome is not in doubt: they become
    /// `expired` and give their units back through the ledger), then is tried again, so stock
    /// held by unpaid orders comes back without waiting for reconciliation. With
    /// `order.holdLimits`, the buyer's open orders are checked first, and a line whose units
    /// the holding caps do not let it hold (``StockHoldLimits/mayHold(_:onShelf:held:heldByBuyer:)``,
    /// counted across all buyers' unpaid orders) but the shelf has is sold on payment: it takes
    /// nothing (``OrderLine/stockTaken`` false) until ``apply(_:at:)`` moves the order to paid.
    ///
    /// - Throws: `outOfStock` naming the product (`product_id`, `title`) and what is left
    ///   (`available`); `reservationLimit` over the open orders; `duplicate` for a merchant UID
    ///   in use.
    func create(_ order: NewOrder, at now: Date) async throws(KeyCatError) -> Order

    func find(_ id: OrderID) async throws(KeyCatError) -> Order?
    /// Whose the order `id` is and where it stands, without its lines, parcels or address: what
    /// a payment's confirmation checks before it asks the PG.
    func standing(of id: OrderID) async throws(KeyCatError) -> OrderStanding?
    func find(merchantUID: String) async throws(KeyCatError) -> Order?
    /// The order `buyer` made with checkout key `requestKey`, if any.
    func find(buyer: UserID, requestKey: String) async throws(KeyCatError) -> Order?

    /// Up to `limit` orders matching `filter`, newest first, strictly after `position`
    /// (sort key: creation time in milliseconds). `filter` has been validated.
    func list(_ filter: OrderFilter, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Order]

    /// Applies `transition` if the order is still in `transition.from`. Moving from awaiting
    /// payment to paid takes the units of the lines sold on payment.
    ///
    /// - Throws: `outOfStock` naming the product (`product_id`) when a line sold on payment
    ///   finds it sold out: nothing is applied.
    /// - Returns: the order as this call's move left it, read in the move's own transaction; nil
    ///   when the order was no longer in `transition.from` (someone else moved it first).
    func apply(_ transition: OrderTransition, at now: Date) async throws(KeyCatError) -> Order?

    /// Marks (or unmarks) an order whose PG answer was lost, so reconciliation settles it.
    func setOutcomeUnknown(_ id: OrderID, _ unknown: Bool) async throws(KeyCatError)

    /// Orders reconciliation must settle: awaiting payment and expired by `now`, or awaiting
    /// with an unknown PG outcome. Oldest first, at most `limit`.
    func ordersToReconcile(at now: Date, limit: Int) async throws(KeyCatError) -> [Order]

    /// Records a payment that pays for nothing (status `voiding`) so it is cancelled at the PG;
    /// harmless when it is already recorded.
    ///
    /// - Returns: whether the payment now stands `voiding` (or was voided): false when it is
    ///   recorded as paying its order, which another path applied first. It must not be
    ///   cancelled then.
    @discardableResult
    func recordVoiding(_ payment: OrderPayment) async throws(KeyCatError) -> Bool
    /// Marks a `voiding` payment `voided`, with its audit entry.
    func markVoided(impUID: String, audit: AuditEntry?) async throws(KeyCatError)
    /// Payments still `voiding`.
    func paymentsToVoid(limit: Int) async throws(KeyCatError) -> [OrderPayment]

    /// The payments of `buyerID`'s orders, newest first, strictly after `position`.
    func payments(of buyerID: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [OrderPayment]
    /// The payments recorded against one order.
    func payments(of orderID: OrderID) async throws(KeyCatError) -> [OrderPayment]

    /// Starts a refund: checks in one transaction that the order is in `expectedStatus`, that no
    /// other refund is pending and that `amount` fits the refundable balance, then records it
    /// `pending` with the balance as its checksum — durably, before the PG is called — together
    /// with the caller's idempotency key and request fingerprint, when given.
    ///
    /// - Throws: `illegalTransition` when the order moved; `requestInProgress` when another
    ///   refund is pending; `cancelAmountExceedsCancellable` above the balance; `duplicate` when a
    ///   refund of the order not failed already carries `requestKey`.
    func beginRefund(orderID: OrderID, expectedStatus: OrderStatus, amount: Money?, reason: String, restock: Bool,
                     target: (_ isFull: Bool) -> OrderStatus, requestKey: String?, requestFingerprint: String?,
                     requestedBy: String, at now: Date) async throws(KeyCatError) -> Refund
    /// The refund of `orderID` asked for with `requestKey` that did not fail (pending or done),
    /// if there is one.
    func refund(of orderID: OrderID, requestKey: String) async throws(KeyCatError) -> Refund?
    /// Completes a pending refund: adds it to the order's refunded amount, moves the order to the
    /// refund's target and, for a full refund with restock, gives the stock back.
    func completeRefund(_ refund: Refund, audit: AuditEntry?, at now: Date) async throws(KeyCatError) -> Order
    /// Marks a pending refund failed (the PG refused it), writing `audit` in the same
    /// transaction when it was still pending.
    func failRefund(_ refund: Refund, audit: AuditEntry, at now: Date) async throws(KeyCatError)
    /// Refunds still pending (their PG answer was lost) that were begun at or before
    /// `begunBy`, oldest first.
    func pendingRefunds(begunBy: Date, limit: Int) async throws(KeyCatError) -> [Refund]
    func refunds(of orderID: OrderID) async throws(KeyCatError) -> [Refund]
}

extension OrderRepository {
    /// The standing of the whole order read by ``find(_:)``; a store overrides it with a read of
    /// the order's own row.
    public func standing(of id: OrderID) async throws(KeyCatError) -> OrderStanding? {
        try await find(id).map(OrderStanding.init)
    }
}
