import Foundation

/// Purchase confirmation (구매확정) and returns (docs/marketplace.md): a delivered parcel's buyer
/// confirms its receipt — or reconciliation does, ``confirmDeliveredParcels(olderThan:limit:by:)``
/// a set time after delivery — and from then on its sale is payable to its seller and its lines
/// can be reviewed. Until then the buyer may ask to return it; its seller (or an operator)
/// approves, refunding what the parcel still holds, or rejects, saying why.
///
/// **Who may do what.** The order's buyer confirms, asks for returns and disputes a seller's
/// rejection; an operator may do any of it for them. The parcel's seller (or an operator)
/// decides a return; a disputed one only an operator rejects, though its seller may still
/// approve it. To anyone else the parcel and the request do not exist (404).
///
/// **Disputes (분쟁).** A seller's rejection would otherwise be the last word on money the shop
/// holds: a seller who marks an empty box delivered, or rejects every return, would be paid
/// a week later. So the buyer may dispute a seller's rejection once, within ``disputeWindow`` of
/// it (or of the delivery, when the parcel came later), or take to the operators a request its
/// seller has left undecided that long; time confirms no parcel while its rejection may still
/// be disputed or its dispute is open: the parcel's sale waits, unpaid, for an operator's ruling.
extension OrderService {
    /// Confirms a delivered parcel's receipt. Confirming one already confirmed answers the order
    /// as it is.
    ///
    /// A buyer who confirms a parcel whose return its seller rejected gives up disputing it.
    ///
    /// - Throws: `notFound` for a parcel not of the caller's orders; `illegalTransition` when it
    ///   is not delivered, its order holds no payment or has a refund in progress, a return
    ///   request of it is open or disputed, or one was approved and its refund has not gone through.
    public func confirmReceipt(of shipmentID: ShipmentID, by principal: Principal) async throws(KeyCatError) -> Order {
        let (shipment, order) = try await buyersParcel(shipmentID, by: principal)
        if shipment.confirmedAt != nil { return order }
        // Confirming makes the parcel payable to its seller and ends the buyer's returns and
        // disputes: an operator who is its seller does not do it for the buyer.
        guard principal.userID != shipment.sellerID || principal.userID == order.buyerID else {
            throw KeyCatError(.forbidden, "shipment \(shipmentID) is the caller's own: its buyer confirms it, or another operator",
                              context: ["status": shipment.status.rawValue])
        }
        guard shipment.status == .delivered, order.status.holdsPayment else {
            throw KeyCatError(.illegalTransition, "shipment \(shipmentID) is \(shipment.status.rawValue) in an order that is "
                              + "\(order.status.rawValue): only a delivered parcel's receipt is confirmed",
                              context: ["status": shipment.status.rawValue])
        }
        let who: ReceiptConfirmation = principal.role == .admin ? .operator : .buyer
        let now = clock.now()
        let audit = AuditEntry(actor: principal.auditActor, action: "shipment.confirm", target: "shipment:\(shipmentID)",
                               detail: "order \(order.id), by the \(who.rawValue)", at: now)
        guard try await shipments.confirmReceipt(of: shipmentID, by: who, audit: audit, at: now) else {
            let current = try await settlement.reload(order.id)
            if current.shipments.first(where: { $0.id == shipmentID })?.confirmedAt != nil { return current }
            let requests = try await shipments.returnRequests(of: order.id).filter { $0.shipmentID == shipmentID }
            if requests.contains(where: { $0.status == .requested }) {
                throw KeyCatError(.illegalTransition, "a return of shipment \(shipmentID) is asked for: its seller decides it first",
                                  context: ["status": shipment.status.rawValue])
            }
            if requests.contains(where: { $0.status == .disputed }) {
                throw KeyCatError(.illegalTransition, "the rejected return of shipment \(shipmentID) is disputed: the shop's operators "
                                  + "rule on it first", context: ["status": shipment.status.rawValue])
            }
            if requests.contains(where: { $0.status == .approved }) {
                throw KeyCatError(.illegalTransition, "the approved return of shipment \(shipmentID) is not refunded yet: "
                                  + "approving it again retries the refund", context: ["status": shipment.status.rawValue])
            }
            if try await orders.refunds(of: order.id).contains(where: { $0.status == .pending }) {
                throw KeyCatError(.illegalTransition, "a refund of order \(order.id) is in progress: its receipt is confirmed once it "
                                  + "settles", context: ["status": shipment.status.rawValue])
            }
            throw KeyCatError(.illegalTransition, "shipment \(shipmentID) changed meanwhile; read it again")
        }
        return try await settlement.reload(order.id)
    }

    /// Asks to return a parcel that left and whose receipt is not confirmed.
    ///
    /// - Throws: `validation` for a bad reason; `notFound` for a parcel not of the caller's
    ///   orders; `illegalTransition` when it has not left, is confirmed, its order holds no
    ///   payment, or a request of it was decided (a rejection stands; an approval's refund is
    ///   retried, not asked for again); `duplicate` while another request of it is open.
    public func requestReturn(of shipmentID: ShipmentID, reason: String, by principal: Principal) async throws(KeyCatError) -> ReturnRequest {
        let reason = try Self.checkedReason(reason)
        let (shipment, order) = try await buyersParcel(shipmentID, by: principal)
        guard order.status.holdsPayment else {
            throw KeyCatError(.illegalTransition, "order \(order.id) is \(order.status.rawValue): nothing of it can be returned",
                              context: ["status": order.status.rawValue])
        }
        let now = clock.now()
        let audit = AuditEntry(actor: principal.auditActor, action: "shipment.return_request", target: "shipment:\(shipment.id)",
                               detail: "order \(order.id): \(reason)", at: now)
        return try await shipments.requestReturn(of: shipment.id, reason: reason, audit: audit, at: now)
    }

    /// Approves a return: marks the request approved — a conditional update, so an approval and
    /// a rejection racing cannot both win — then refunds every line of the parcel not refunded
    /// yet (its fee stays with the seller, the parcel having travelled), restocking them when
    /// `restock` (the goods came back). Approving an approved request again settles the same
    /// refund, restocking as it was approved (this call's `restock` is then ignored: until
    /// 2026-12-01 a retry took it, so one that left it out after a refused refund kept the units
    /// the seller had said came back, and one that added it gave back units never returned), kept under a key of KeyCat's own (`keycat:return-<id>`, a prefix clients' keys may
    /// not take): a lost or refused PG answer is retried safely. Until it has gone through, the
    /// parcel is not confirmed, by time or by its buyer.
    ///
    /// - Throws: `notFound` for a request not the caller's to decide; `illegalTransition` for a
    ///   rejected one; the refund's errors (``refundLines(of:_:by:)``), after which the request
    ///   stays approved and approving it again retries the refund.
    public func approveReturn(_ id: ReturnRequestID, restock: Bool = false, by principal: Principal) async throws(KeyCatError) -> Order {
        var request = try await decidableReturn(id, by: principal)
        if request.status == .requested || request.status == .disputed {
            let disputed = request.status == .disputed
            let audit = AuditEntry(actor: principal.auditActor, action: "return.approve", target: "return:\(id)",
                                   detail: "shipment \(request.shipmentID)\(restock ? ", restocked" : "")"
                                       + (disputed ? ", on the buyer's dispute" : ""), at: clock.now())
            let approved = disputed
                ? try await shipments.ruleOnDispute(id, .approved, ruling: nil, restock: restock, audit: audit, at: clock.now())
                : try await shipments.decideReturn(id, .approved, decision: nil, restock: restock, bySeller: false, audit: audit,
                                                   at: clock.now())
            if let approved {
                request = approved
            } else {
                request = try await decidableReturn(id, by: principal)  // decided meanwhile: by whom, and how?
            }
        }
        guard request.status == .approved else {
            throw KeyCatError(.illegalTransition, "return request \(id) was rejected", context: ["status": request.status.rawValue])
        }
        let restocking = request.restocks  // as it was approved, by this call or an earlier one
        let order = try await settlement.reload(request.orderID)
        guard let shipment = order.shipments.first(where: { $0.id == request.shipmentID }) else { return order }
        guard shipment.lines.contains(where: { order.lines[$0].refundedAt == nil }) else {
            // Refunded before it was approved: only the record is missing.
            try await shipments.markReturnRefunded(id, at: clock.now())
            return order
        }
        // The refund's reason names the request, and only that: it goes to the PG and into the
        // `order.refunded` event every webhook endpoint receives, and the buyer's words (often a
        // phone number or an address) stay on the request, read under the reader's own rights.
        // Until 2026-12-01 they were copied into the refund's reason; a refund begun then and still
        // pending is retried as it was begun, or its key would not match.
        // The refund is kept under a key of KeyCat's own (clients' keys cannot take its prefix), so
        // a refund someone else started under a key of the same spelling cannot stand in for it.
        // Completing it records the request refunded, in the refund's own transaction.
        let key = IdempotentRunner.reservedPrefix + "return-\(id)"
        let begun = try await orders.refund(of: order.id, requestKey: key).flatMap { $0.status == .pending ? $0.reason : nil }
        let reason = begun ?? "return \(id)"
        do {
            return try await refundLines(of: shipment, lines: nil, amount: nil, reason: reason, restock: restocking, requestKey: key,
                                         fingerprint: "\(shipment.id)|rest|0|\(restocking)|\(reason)", by: principal)
        } catch where error.code == .cancelAmountExceedsCancellable {
            // The seller's compensations already gave back all the lines held: nothing is left to
            // send the PG, and the return is seen through without money (its units back when the
            // goods are), or it would hold the parcel's confirmation, and its fee, for ever.
            let audit = AuditEntry(actor: principal.auditActor, action: "return.close", target: "return:\(id)",
                                   detail: "shipment \(shipment.id): its lines held nothing to refund\(restocking ? ", restocked" : "")",
                                   at: clock.now())
            guard try await shipments.closeReturnHoldingNothing(request, restock: restocking, audit: audit, at: clock.now()) else { throw error }
            return try await settlement.reload(request.orderID)
        }
    }

    /// Sees approved returns through (admin; reconciliation calls it on every run): an approval
    /// whose refund did not go through — another refund of the order was pending, the PG refused
    /// or did not answer — is approved again, restocking as it was approved, once no refund of
    /// its order is pending; one whose parcel is refunded is recorded so. At most `limit`.
    ///
    /// - Returns: how many approvals it saw refunded; one whose refund fails again waits for
    ///   the next run.
    public func settleApprovedReturns(limit: Int = 100, by principal: Principal) async throws(KeyCatError) -> Int {
        try principal.require(.admin, to: "settle approved returns")
        var settled = 0
        for approval in try await shipments.approvedReturnsAwaitingRefund(limit: limit) where approval.refunded || !approval.refundPending {
            do throws(KeyCatError) {
                if approval.refunded {
                    try await shipments.markReturnRefunded(approval.id, at: clock.now())
                } else {
                    _ = try await approveReturn(approval.id, restock: approval.restock, by: principal)
                }
                settled += 1
            } catch {
                // The next run tries again, after the approvals tried less recently.
                try? await shipments.markReturnRefundTried(approval.id, at: clock.now())
            }
        }
        return settled
    }

    /// Rejects a return, saying why; on a disputed one (operators only) the ruling is final. The
    /// parcel can then be confirmed by its buyer, and by time once a seller's rejection can no
    /// longer be disputed (``disputeWindow``).
    ///
    /// - Throws: `validation` for a bad reason; `notFound` for a request not the caller's to
    ///   decide; `forbidden` for its seller when the buyer disputed the rejection;
    ///   `illegalTransition` once it was decided.
    public func rejectReturn(_ id: ReturnRequestID, reason: String, by principal: Principal) async throws(KeyCatError) -> ReturnRequest {
        let reason = try Self.checkedReason(reason)
        let request = try await decidableReturn(id, by: principal)
        let disputed = request.status == .disputed
        // The seller's own word, in whatever role they act, is what the buyer disputes.
        guard !disputed || principal.role == .admin && principal.userID != request.sellerID else {
            throw KeyCatError(.forbidden, "the buyer disputed the rejection of return request \(id): another of the shop's "
                              + "operators rules on it", context: ["status": request.status.rawValue])
        }
        let audit = AuditEntry(actor: principal.auditActor, action: "return.reject", target: "return:\(id)",
                               detail: "shipment \(request.shipmentID)\(disputed ? ", on the buyer's dispute" : ""): \(reason)", at: clock.now())
        // The seller's rejection, the disputable kind, while the shop takes disputes: one made
        // while it takes none (a window of 0) stays final.
        let rejected = disputed
            ? try await shipments.ruleOnDispute(id, .rejected, ruling: reason, restock: false, audit: audit, at: clock.now())
            : try await shipments.decideReturn(id, .rejected, decision: reason, restock: false,
                                               bySeller: principal.userID == request.sellerID && disputeWindow > 0, audit: audit, at: clock.now())
        guard let rejected else {
            throw KeyCatError(.illegalTransition, "return request \(id) was already decided", context: ["status": request.status.rawValue])
        }
        return rejected
    }

    /// Return requests of the caller's parcels (a seller's), newest first; an admin's: every
    /// seller's. `status` keeps those in it (`requested`: what to decide).
    public func returnRequests(status: ReturnRequest.Status? = nil, limit: PageLimit = .default, cursor: String? = nil,
                               by principal: Principal) async throws(KeyCatError) -> Page<ReturnRequest> {
        try principal.require(.seller, .admin, to: "read return requests")
        let seller = principal.role == .admin ? nil : principal.userID
        let query = "returns|\(seller.map { "\($0)" } ?? "*")|\(status?.rawValue ?? "*")"
        let position = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
        var items = try await shipments.returnRequests(seller: seller, status: status, before: position.map { ReturnRequestID($0.id) },
                                                       limit: limit.value + 1)
        var next: String?
        if items.count > limit.value {
            items.removeLast()
            let last = items[items.count - 1].id.rawValue
            next = cursors.encode(CursorPosition(sortKey: last, id: last), query: query)
        }
        return Page(items: items, nextCursor: next)
    }

    /// One return request, for its parcel's seller, its buyer or an admin; anyone else is told
    /// it is not there.
    public func returnRequest(_ id: ReturnRequestID, by principal: Principal) async throws(KeyCatError) -> ReturnRequest {
        guard let request = try await shipments.returnRequest(id),
              principal.role == .admin || request.sellerID == principal.userID || request.buyerID == principal.userID else {
            throw KeyCatError.notFound("return request", id)
        }
        return request
    }

    /// The return requests of one order, for its buyer or an admin.
    public func returnRequests(of id: OrderID, by principal: Principal) async throws(KeyCatError) -> [ReturnRequest] {
        _ = try await visibleOrder(id, by: principal)
        return try await shipments.returnRequests(of: id)
    }

    /// Confirms the receipt of parcels delivered more than `delay` ago with no open or disputed
    /// return request, nor a seller's rejection the buyer may still dispute (admin;
    /// reconciliation calls it on every run), at most `limit`.
    ///
    /// When the shop tracks parcels (``untrackedDelay`` set), the delivery that counts is the
    /// carrier's, made known at least ``carrierNoticeGrace`` ago, and a parcel no carrier has said
    /// was delivered waits until it shipped ``untrackedDelay`` ago as well.
    ///
    /// - Returns: how many it confirmed.
    public func confirmDeliveredParcels(olderThan delay: TimeInterval, limit: Int = 1_000, by principal: Principal) async throws(KeyCatError) -> Int {
        try principal.require(.admin, to: "confirm receipts")
        guard delay >= 0 else { throw KeyCatError.validation("delay", "a confirmation delay is not negative") }
        let now = clock.now()
        return try await shipments.confirmDelivered(before: now.addingTimeInterval(-delay), rejectedSince: now.addingTimeInterval(-disputeWindow),
                                                    tracking: trackingCutoffs(at: now), limit: limit, at: now)
    }

    /// The parcel and its order, for the order's buyer or an admin; anyone else is told the
    /// parcel is not there.
    private func buyersParcel(_ id: ShipmentID, by principal: Principal) async throws(KeyCatError) -> (Shipment, Order) {
        guard let found = try await shipments.shipment(id), let order = try await orders.find(found.orderID),
              principal.role == .admin || order.buyerID == principal.userID,
              let shipment = order.shipments.first(where: { $0.id == id }) else {
            throw KeyCatError.notFound("shipment", id)
        }
        return (shipment, order)
    }

    /// The request, for its parcel's seller or an admin; anyone else is told it is not there.
    private func decidableReturn(_ id: ReturnRequestID, by principal: Principal) async throws(KeyCatError) -> ReturnRequest {
        guard let request = try await shipments.returnRequest(id), principal.role == .admin || request.sellerID == principal.userID else {
            throw KeyCatError.notFound("return request", id)
        }
        return request
    }
}
