import Foundation

/// Orders after checkout: buyers read theirs and cancel before shipping; operators list, ship,
/// deliver, cancel and refund (architecture §2). Every operator action is audited in the transaction
/// that makes it.
public struct OrderService: Sendable {
    let orders: any OrderRepository
    let cursors: any PageCursorCodec
    let clock: any WallClock
    let settlement: PaymentSettlement
    let idempotency: IdempotentRunner
    /// Shipments and the sellers' desk (nil: only the order-wide operations).
    let fulfilment: (any FulfilmentRepository)?
    /// How long after its seller's rejection (or the delivery, when the parcel came later) a
    /// buyer may dispute a return, and how long an undecided request waits before they may take
    /// it to the operators (``disputeReturn(_:reason:by:)``); time confirms no parcel meanwhile.
    /// 0 takes no disputes.
    let disputeWindow: TimeInterval
    /// When the shop tracks parcels (``trackParcels(with:interval:limit:by:)``): how long after it
    /// shipped a parcel no carrier has said was delivered is confirmed by time, and until when a
    /// seller's rejection of its return may be disputed. Nil: no tracker, a seller's word of
    /// delivery counts.
    let untrackedDelay: TimeInterval?
    /// Where an operator's reads of orders (each holds its buyer's name, phone and address) are
    /// recorded.
    let access: PersonalDataAccess

    /// Three days: time for a buyer told "no" to say why it is wrong, short enough that an honest
    /// seller's pay waits little.
    public static let defaultDisputeWindow: TimeInterval = 3 * 24 * 60 * 60

    public init(orders: any OrderRepository, gateway: any PaymentGateway, idempotency: any IdempotencyStore,
                cursors: any PageCursorCodec, clock: any WallClock, fulfilment: (any FulfilmentRepository)? = nil,
                disputeWindow: TimeInterval = OrderService.defaultDisputeWindow, untrackedDelay: TimeInterval? = nil,
                accessLog: (any AuditLog)? = nil) {
        self.orders = orders
        self.access = PersonalDataAccess(log: accessLog, clock: clock)
        self.untrackedDelay = untrackedDelay
        self.fulfilment = fulfilment
        self.disputeWindow = disputeWindow
        self.cursors = cursors
        self.clock = clock
        self.settlement = PaymentSettlement(orders: orders, gateway: gateway, clock: clock)
        self.idempotency = IdempotentRunner(store: idempotency, orders: orders, clock: clock)
    }

    /// One order, for its buyer or an admin. Anyone else is told it is not there, as for a
    /// missing one: ids are sequential, and a 403 would tell which orders exist (and when they
    /// were made).
    ///
    /// An operator's read of someone else's order is recorded (``PersonalDataAccess``): it
    /// holds their name, phone and address.
    ///
    /// - Throws: `notFound` for a missing order or one that is not the caller's.
    public func order(_ id: OrderID, by principal: Principal) async throws(KeyCatError) -> Order {
        let order = try await visibleOrder(id, by: principal)
        if order.buyerID != principal.userID { try await access.record(by: principal, to: "order:\(id)", "order") }
        return order
    }

    /// ``order(_:by:)`` without the record, for everything that hangs off an order (payments,
    /// refunds, returns, cancel, ship, refund): each reads the order through here first to check
    /// the caller, and is either no read of the address or an operator's action audited as
    /// itself.
    func visibleOrder(_ id: OrderID, by principal: Principal) async throws(KeyCatError) -> Order {
        guard let order = try await orders.find(id) else { throw KeyCatError.notFound("order", id) }
        try principal.requireOwnerOrAdmin(order.buyerID, hiding: "order", id)
        return order
    }

    /// Orders newest first. A buyer or seller sees only their own (the filter's buyer is forced
    /// to them); an admin sees any, and each page they are shown is recorded by its orders' ids
    /// (``PersonalDataAccess``). The cursor is bound to the filter (``OrderFilter``'s
    /// fingerprint): a cursor from another filter is refused.
    ///
    /// - Throws: `validation` naming `placed_from` for an empty window; `invalidCursor` for a
    ///   cursor not made by this list under this filter.
    public func list(_ filter: OrderFilter = OrderFilter(), limit: PageLimit = .default, cursor: String? = nil,
                     by principal: Principal) async throws(KeyCatError) -> Page<Order> {
        try filter.validate()
        var filter = filter
        if principal.role != .admin { filter.buyerID = principal.userID }
        let query = "orders|newest|\(filter.fingerprint)"
        let position = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
        var items = try await orders.list(filter, after: position, limit: limit.value + 1)
        var next: String?
        if items.count > limit.value {
            items.removeLast()
            let last = items[items.count - 1]
            next = cursors.encode(CursorPosition(sortKey: last.createdAt.millisecondsSince1970, id: last.id.rawValue), query: query)
        }
        try await access.record(by: principal, to: "orders", "list", ids: items.filter { $0.buyerID != principal.userID }.map(\.id.rawValue))
        return Page(items: items, nextCursor: next)
    }

    /// The caller's payments, newest first (by the order they were recorded in).
    public func payments(limit: PageLimit = .default, cursor: String? = nil, by principal: Principal) async throws(KeyCatError) -> Page<OrderPayment> {
        let query = "payments|\(principal.userID)"
        let position = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
        var items = try await orders.payments(of: principal.userID, after: position, limit: limit.value + 1)
        var next: String?
        if items.count > limit.value {
            items.removeLast()
            let last = items[items.count - 1]
            next = cursors.encode(CursorPosition(sortKey: last.id, id: last.id), query: query)
        }
        return Page(items: items, nextCursor: next)
    }

    /// The payments recorded against one order.
    public func payments(of id: OrderID, by principal: Principal) async throws(KeyCatError) -> [OrderPayment] {
        _ = try await visibleOrder(id, by: principal)
        return try await orders.payments(of: id)
    }

    /// The refunds of one order.
    public func refunds(of id: OrderID, by principal: Principal) async throws(KeyCatError) -> [Refund] {
        _ = try await visibleOrder(id, by: principal)
        return try await orders.refunds(of: id)
    }

    /// Marks a paid order shipped with its carrier and tracking number (admin): every pending
    /// shipment of it leaves with them (``ship(shipment:carrier:trackingNumber:by:)`` ships one).
    public func ship(_ id: OrderID, carrier: String, trackingNumber: String, by principal: Principal) async throws(KeyCatError) -> Order {
        try principal.require(.admin, to: "ship orders")
        let carrier = try TextRules.text(carrier, Self.carrierField)
        let tracking = try TextRules.text(trackingNumber, Self.trackingNumberField)
        if fulfilment != nil {
            let current = try await visibleOrder(id, by: principal)
            if !current.shipments.isEmpty { return try await shipAll(current, carrier: carrier, trackingNumber: tracking, by: principal) }
        }
        return try await move(id, to: .shipped, by: principal, detail: "\(carrier) \(tracking)") { move in
            move.requiresNoPendingRefund = true
            move.carrier = carrier
            move.trackingNumber = tracking
        }
    }

    /// Marks a shipped order delivered (admin): every shipment of it that left.
    public func deliver(_ id: OrderID, by principal: Principal) async throws(KeyCatError) -> Order {
        try principal.require(.admin, to: "deliver orders")
        if fulfilment != nil {
            let current = try await visibleOrder(id, by: principal)
            if !current.shipments.isEmpty { return try await deliverAll(current, by: principal) }
        }
        return try await move(id, to: .delivered, by: principal, detail: "")
    }

    /// Moves an order by the state machine, conditionally on the status it was read in.
    func move(_ id: OrderID, to next: OrderStatus, by principal: Principal, detail: String,
              _ adjust: (inout OrderTransition) -> Void = { _ in }) async throws(KeyCatError) -> Order {
        let current = try await visibleOrder(id, by: principal)
        try current.status.checkMove(to: next)
        let now = clock.now()
        var transition = OrderTransition(orderID: id, from: current.status, to: next)
        transition.audit = AuditEntry(actor: principal.auditActor, action: "order.\(Self.verb(next))",
                                      target: "order:\(id)", detail: detail, at: now)
        adjust(&transition)
        guard let moved = try await orders.apply(transition, at: now) else {
            let current = try await settlement.reload(id)
            try current.status.checkMove(to: next)
            if transition.requiresNoPendingRefund, try await orders.refunds(of: id).contains(where: { $0.status == .pending }) {
                throw KeyCatError(.illegalTransition, "order \(id) has a refund in progress (a cancellation); it cannot ship until that settles",
                                  context: ["status": current.status.rawValue])
            }
            throw KeyCatError(.illegalTransition, "order \(id) changed meanwhile; read it again")
        }
        return moved
    }

    static func verb(_ status: OrderStatus) -> String {
        switch status {
        case .shipped: "ship"
        case .delivered: "deliver"
        case .cancelled: "cancel"
        case .expired: "expire"
        case .failed: "fail"
        case .paid: "pay"
        case .partiallyRefunded, .refunded: "refund"
        case .awaitingPayment: "create"
        }
    }

}
