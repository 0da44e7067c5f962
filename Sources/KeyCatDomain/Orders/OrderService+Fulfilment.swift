import Foundation

/// A seller's refund of their own parcel: whole lines, or a part of its value.
public struct LineRefundRequest: Sendable, Hashable {
    /// Positions in the order's lines; nil: every line of the shipment not refunded yet (or,
    /// with ``amount``, none).
    public var lines: [Int]?
    /// A part of what the parcel still holds, naming no line — compensation for a damaged or
    /// short item the buyer keeps: no line is marked refunded and nothing returns to stock.
    /// Exclusive with ``lines``.
    public var amount: Money?
    public var reason: String
    /// Give the units back to stock. Nil: yes while the shipment has not left (the goods never
    /// did), no once it has (returned goods are restocked only when the seller says so).
    public var restock: Bool?
    public var idempotencyKey: String?

    public init(lines: [Int]? = nil, amount: Money? = nil, reason: String, restock: Bool? = nil, idempotencyKey: String? = nil) {
        self.lines = lines
        self.amount = amount
        self.reason = reason
        self.restock = restock
        self.idempotencyKey = idempotencyKey
    }
}

/// The marketplace's half (architecture §2, fulfilment): each seller ships, delivers and refunds
/// their own part of an order, and sees the orders that hold their lines.
///
/// **Who may do what.** A shipment is its seller's: they ship it, mark it delivered and refund
/// its lines; an admin may do all of it for any seller. To anyone else a shipment does not exist
/// (404), so shipment ids reveal nothing. **Line refunds** give back whole lines of a paid order
/// (their unit price × quantity), and the shipment's delivery fee with them when the refund
/// leaves the shipment nothing to send before it left; they go to the PG as a partial cancel of
/// the buyer's payment, like any refund, and the order becomes `partially_refunded` (or
/// `refunded`, when nothing is left). A seller may instead give back **a part of the parcel's
/// value** (compensation for a damaged item the buyer keeps): up to what the parcel still holds,
/// charged to that seller's settlement, no line marked and no unit restocked. A buyer cancels the
/// whole order instead.
extension OrderService {
    var shipments: any FulfilmentRepository {
        get throws(KeyCatError) {
            guard let fulfilment else { throw KeyCatError(.internalError, "this KeyCat has no fulfilment store") }
            return fulfilment
        }
    }

    /// The shipment, for its seller or an admin; anyone else is told it is not there.
    func ownedShipment(_ id: ShipmentID, by principal: Principal) async throws(KeyCatError) -> Shipment {
        guard let shipment = try await shipments.shipment(id), principal.role == .admin || shipment.sellerID == principal.userID else {
            throw KeyCatError.notFound("shipment", id)
        }
        return shipment
    }

    /// Ships one seller's parcel: a known carrier (``Carrier/named(_:)``) and a tracking number
    /// of its format. The order becomes `shipped` once no shipment of it is pending.
    ///
    /// A number names one parcel (``trackingNumberMemory``): one another parcel holds is refused,
    /// unless that parcel goes from the same seller to the same buyer at the same address (one
    /// box holding both orders, 합포장). Otherwise a seller could ship one box and give its number
    /// to every order, and its carrier's delivery would stand for them all. An operator's move of
    /// a whole order ships its parcels as one box, all of them or none.
    ///
    /// - Throws: `notFound` for a shipment not the caller's; `validation` for an unknown carrier
    ///   or a tracking number not of its format; `duplicate` (`tracking_number`) for a number
    ///   another parcel holds; `illegalTransition` when the shipment is not pending, the order
    ///   holds no payment, or a refund of it is in progress.
    public func ship(shipment id: ShipmentID, carrier: String, trackingNumber: String, by principal: Principal) async throws(KeyCatError) -> Order {
        let shipment = try await ownedShipment(id, by: principal)
        let carrier = try Carrier.named(carrier)
        let tracking = try carrier.trackingNumber(trackingNumber)
        try await move(shipment, to: .shipped, by: principal, detail: "\(carrier.code) \(tracking)") {
            $0.carrier = carrier
            $0.trackingNumber = tracking
        }
        return try await settlement.reload(shipment.orderID)
    }

    /// Marks one seller's parcel delivered. The order becomes `delivered` once every live
    /// shipment is, and the buyer may then review what the parcel held.
    public func deliver(shipment id: ShipmentID, by principal: Principal) async throws(KeyCatError) -> Order {
        let shipment = try await ownedShipment(id, by: principal)
        try await move(shipment, to: .delivered, by: principal, detail: "")
        return try await settlement.reload(shipment.orderID)
    }

    func shipAll(_ order: Order, carrier: String, trackingNumber: String, by principal: Principal) async throws(KeyCatError) -> Order {
        let pending = order.shipments.filter { $0.status == .pending }
        guard !pending.isEmpty else {
            try order.status.checkMove(to: .shipped)
            throw KeyCatError(.illegalTransition, "order \(order.id) has no shipment waiting to leave")
        }
        let known = try Carrier.named(carrier)
        let tracking = try known.trackingNumber(trackingNumber)
        // Every parcel checked first, so a taken number stops the order before any of it ships
        // (each move checks again, in its own statement).
        let use = numberUse(at: clock.now(), wholeOrder: true)
        for shipment in pending {
            if try await shipments.numberIsTaken(known, tracking, besides: shipment.id, use) { throw Self.numberTaken(known, tracking) }
        }
        for shipment in pending {
            try await move(shipment, to: .shipped, by: principal, detail: "\(known.code) \(tracking)", wholeOrder: true) {
                $0.carrier = known
                $0.trackingNumber = tracking
            }
        }
        return try await settlement.reload(order.id)
    }

    func deliverAll(_ order: Order, by principal: Principal) async throws(KeyCatError) -> Order {
        let shipped = order.shipments.filter { $0.status == .shipped }
        guard !shipped.isEmpty else {
            try order.status.checkMove(to: .delivered)
            throw KeyCatError(.illegalTransition, "order \(order.id) has no shipment on its way")
        }
        for shipment in shipped { try await move(shipment, to: .delivered, by: principal, detail: "", wholeOrder: true) }
        return try await settlement.reload(order.id)
    }

    /// Moves one shipment, audited as `shipment.ship|deliver` on the shipment, or (`wholeOrder`:
    /// an operator moving the order) as `order.ship|deliver` on the order, as before shipments.
    private func move(_ shipment: Shipment, to next: ShipmentStatus, by principal: Principal, detail: String, wholeOrder: Bool = false,
                      _ adjust: (inout ShipmentMove) -> Void = { _ in }) async throws(KeyCatError) {
        try shipment.status.checkMove(to: next)
        let now = clock.now()
        var move = ShipmentMove(shipmentID: shipment.id, from: shipment.status, to: next)
        let verb = next == .shipped ? "ship" : "deliver"
        move.audit = wholeOrder
            ? AuditEntry(actor: principal.auditActor, action: "order.\(verb)", target: "order:\(shipment.orderID)",
                         detail: "shipment \(shipment.id) \(detail)", at: now)
            : AuditEntry(actor: principal.auditActor, action: "shipment.\(verb)", target: "shipment:\(shipment.id)",
                         detail: "order \(shipment.orderID) \(detail)", at: now)
        adjust(&move)
        if next == .shipped, move.trackingNumber != nil { move.numberUse = numberUse(at: now, wholeOrder: wholeOrder) }
        guard try await shipments.apply(move, at: now) else {
            let order = try await settlement.reload(shipment.orderID)
            if let moved = order.shipments.first(where: { $0.id == shipment.id }), moved.status != shipment.status {
                try moved.status.checkMove(to: next)
            }
            guard order.status.holdsPayment else {
                throw KeyCatError(.illegalTransition, "order \(order.id) is \(order.status.rawValue): nothing of it ships",
                                  context: ["status": order.status.rawValue])
            }
            if try await orders.refunds(of: order.id).contains(where: { $0.status == .pending }) {
                throw KeyCatError(.illegalTransition, "order \(order.id) has a refund in progress; it cannot ship until that settles",
                                  context: ["status": order.status.rawValue])
            }
            if let carrier = move.carrier, let number = move.trackingNumber, let use = move.numberUse,
               try await shipments.numberIsTaken(carrier, number, besides: shipment.id, use) {
                throw Self.numberTaken(carrier, number)
            }
            throw KeyCatError(.illegalTransition, "shipment \(shipment.id) changed meanwhile; read it again")
        }
    }

    /// How long a tracking number stays its parcel's at least, refusing it to another order's:
    /// carriers issue a number again after a while, so a parcel given it longer ago holds it no
    /// more. A shop whose untracked parcels wait longer (``Configuration/untrackedConfirmationDelay``)
    /// holds numbers for that wait and four weeks more, so a number stays its parcel's while the
    /// parcel may still be confirmed by it.
    public static let trackingNumberMemory: TimeInterval = 90 * 24 * 60 * 60

    /// How a parcel takes a number at `now`: held since the memory's start; shared with its
    /// order's other parcels on an operator's move of the whole order.
    func numberUse(at now: Date, wholeOrder: Bool = false) -> NumberUse {
        let memory = max(Self.trackingNumberMemory, (untrackedDelay ?? 0) + 28 * 24 * 60 * 60)
        return NumberUse(heldSince: now.addingTimeInterval(-memory), sharedWithOrder: wholeOrder)
    }

    static func numberTaken(_ carrier: Carrier, _ number: String) -> KeyCatError {
        KeyCatError(.duplicate, "\(carrier.name) \(number) is already another parcel's number; one number travels with one box, "
                        + "which two parcels share only when both go from the same seller to the same buyer at the same address",
                    context: ["field": "tracking_number", "carrier": carrier.code])
    }

    /// The orders holding the caller's lines (a seller's desk), newest first, each with only
    /// their lines and shipment, the address and the buyer's nick. `status` keeps those whose
    /// shipment is in it (`pending`: what to send today).
    public func sellerOrders(status: ShipmentStatus? = nil, limit: PageLimit = .default, cursor: String? = nil,
                             by principal: Principal) async throws(KeyCatError) -> Page<SellerOrder> {
        try principal.require(.seller, .admin, to: "read a seller's orders")
        return try await sellerOrders(of: principal.userID, status: status, limit: limit, cursor: cursor)
    }

    /// A seller's desk as an operator sees it (`keycat-admin orders list --seller ID --desk`);
    /// each page is recorded by its orders' ids (``PersonalDataAccess``), since it shows where
    /// each parcel goes.
    public func sellerOrders(of seller: UserID, status: ShipmentStatus? = nil, limit: PageLimit = .default, cursor: String? = nil,
                             by principal: Principal) async throws(KeyCatError) -> Page<SellerOrder> {
        try principal.require(.admin, to: "read another seller's orders")
        let page = try await sellerOrders(of: seller, status: status, limit: limit, cursor: cursor)
        try await access.record(by: principal, to: "orders", "seller \(seller)'s desk", ids: page.items.map(\.orderID.rawValue))
        return page
    }

    private func sellerOrders(of seller: UserID, status: ShipmentStatus?, limit: PageLimit, cursor: String?) async throws(KeyCatError) -> Page<SellerOrder> {
        let query = "seller-orders|\(seller)|\(status?.rawValue ?? "*")"
        let position = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
        var items = try await shipments.sellerOrders(seller, status: status, after: position, limit: limit.value + 1)
        var next: String?
        if items.count > limit.value {
            items.removeLast()
            let last = items[items.count - 1]
            next = cursors.encode(CursorPosition(sortKey: last.createdAt.millisecondsSince1970, id: last.orderID.rawValue), query: query)
        }
        return Page(items: items, nextCursor: next)
    }

    /// Refunds some lines of one shipment (see the type's notes for the policy).
    ///
    /// Once its buyer has accepted the parcel (구매확정, by them or by time) it is payable to its
    /// seller and may be paid out at the month's close, so refunding it is an operator's
    /// decision: a seller could otherwise be paid for a sale, refund it the next day from the
    /// shop's money, and leave a negative settlement behind.
    ///
    /// - Throws: `notFound` for a shipment not the caller's; `validation` for a line not of the
    ///   shipment, one already refunded, or a bad reason; `illegalTransition` when the order
    ///   holds no payment, no line is named and every line is refunded already, or a seller
    ///   refunds a parcel whose receipt was confirmed; `requestInProgress` while another refund is pending;
    ///   `idempotencyKeyReused`; gateway errors as ``refund(_:_:by:)``'s.
    public func refundLines(of shipmentID: ShipmentID, _ request: LineRefundRequest, by principal: Principal) async throws(KeyCatError) -> Order {
        let reason = try Self.checkedReason(request.reason)
        let shipment = try await ownedShipment(shipmentID, by: principal)
        if let amount = request.amount {
            guard request.lines == nil else { throw KeyCatError.validation("amount", "name lines or an amount, not both") }
            guard amount > .zero else { throw KeyCatError.validation("amount", "a refund amount is positive") }
            guard request.restock != true else {
                throw KeyCatError.validation("restock", "a part of a parcel's value returns no units; refund its lines to restock")
            }
        }
        if let lines = request.lines {
            guard !lines.isEmpty, Set(lines).count == lines.count else {
                throw KeyCatError.validation("lines", "name each line to refund once")
            }
            if let stranger = lines.first(where: { !shipment.lines.contains($0) }) {
                throw KeyCatError.validation("lines", "line \(stranger) is not in shipment \(shipmentID)")
            }
        }
        let named = request.lines?.sorted()
        let restock = request.amount == nil && (request.restock ?? (shipment.status == .pending))
        // The request is fingerprinted as sent — "the rest of the parcel", restocking by default —
        // not as what it meant when it first ran: a retry after the refund landed (the lines
        // refunded, the parcel cancelled) must match its own first request.
        let part = request.amount == nil ? named.map { "\($0)" } ?? "rest" : "[]"
        let fingerprint = "\(shipmentID)|\(part)|\(request.amount?.won ?? 0)|\(request.restock.map { "\($0)" } ?? "default")|\(reason)"
        return try await idempotency.run(scope: "line-refund:\(principal.auditActor)", key: request.idempotencyKey,
                                         fingerprint: fingerprint) { () async throws(KeyCatError) -> Order in
            try await refundLines(of: shipment, lines: request.amount == nil ? named : [], amount: request.amount, reason: reason,
                                  restock: restock, requestKey: request.idempotencyKey, fingerprint: fingerprint, by: principal)
        }
    }

    /// The refund itself, after the request's checks: `lines` nil refunds every line of the
    /// parcel not refunded yet. A refund already recorded under `requestKey` is answered (or,
    /// still pending, sent again), never started twice.
    func refundLines(of shipment: Shipment, lines named: [Int]?, amount: Money?, reason: String, restock: Bool,
                     requestKey: String?, fingerprint: String, by principal: Principal) async throws(KeyCatError) -> Order {
        let order = try await settlement.reload(shipment.orderID)
        if let key = requestKey, let earlier = try await orders.refund(of: order.id, requestKey: key) {
            guard earlier.requestFingerprint == fingerprint else {
                throw KeyCatError(.idempotencyKeyReused, "the idempotency key was used for another refund of order \(order.id)")
            }
            guard earlier.status == .pending, let impUID = order.impUID else { return order }
            return try await send(earlier, impUID: impUID, action: "shipment.refund", sentBefore: true, by: principal)
        }
        guard order.status.holdsPayment, let impUID = order.impUID else {
            throw KeyCatError(.illegalTransition, "order \(order.id) holds no payment to refund",
                              context: ["status": order.status.rawValue])
        }
        let lines = named ?? shipment.lines.filter { order.lines[$0].refundedAt == nil }
        guard amount != nil || !lines.isEmpty else {
            throw KeyCatError(.illegalTransition, "every line of shipment \(shipment.id) is refunded already")
        }
        let refund = try await shipments.beginLineRefund(
            orderID: order.id, expectedStatus: order.status, shipmentID: shipment.id, lines: lines, amount: amount, reason: reason,
            restock: restock, cancelling: false, bySeller: principal.role != .admin, requestKey: requestKey,
            requestFingerprint: requestKey == nil ? nil : fingerprint, requestedBy: principal.auditActor, at: clock.now())
        return try await send(refund, impUID: impUID, action: "shipment.refund", by: principal)
    }
}

extension OrderService {
    /// Anonymises the shipping addresses of orders whose last parcel arrived (or that closed)
    /// more than `retention` ago: recipient, phone, street and requests are blanked, the
    /// postcode keeps its district (`06000`). At most `limit` orders a call; the reconciliation
    /// loop calls it on every run.
    ///
    /// - Returns: how many orders it anonymised.
    public func anonymiseAddresses(olderThan retention: TimeInterval, limit: Int = 1_000, by principal: Principal) async throws(KeyCatError) -> Int {
        try principal.require(.admin, to: "anonymise addresses")
        guard retention >= 0 else { throw KeyCatError.validation("retention", "a retention is not negative") }
        let now = clock.now()
        return try await shipments.anonymiseAddresses(closedBefore: now.addingTimeInterval(-retention), limit: limit, at: now)
    }
}
