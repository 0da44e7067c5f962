import Foundation

/// A buyer's cancel follows the goods (docs/marketplace.md, "Cancelling"): what has not left its
/// seller can be cancelled, what has left cannot.
///
/// - **The whole order**, while every live parcel is pending: unpaid, it is cancelled and its
///   stock comes back; paid, its balance is refunded at the PG and it becomes `cancelled`. The
///   check that nothing has left is made again in the transaction that records the refund, and a
///   parcel cannot ship while the refund is pending, so a seller shipping at the same moment
///   either wins (the cancel is refused) or waits.
/// - **Some parcels**, named: each is refunded on its own — its lines and its delivery fee, as
///   a line refund charged to that parcel's seller only — and its units come back. The other
///   parcels go on. Naming every live parcel of a paid order cancels the whole order.
///
/// A parcel that has left (shipped or delivered) is never cancelled: the answer is
/// `already_shipped` (409, with `shipment_id`), and its units are never restocked by a cancel.
/// The buyer asks for a return instead; its seller or an operator refunds it and says whether
/// the goods came back.
extension OrderService {
    /// Cancels an order, or the named parcels of it, for its buyer or an admin (see the
    /// extension's notes).
    ///
    /// - Parameters:
    ///   - shipments: the parcels to cancel; nil cancels the whole order.
    /// - Throws: `validation` for a bad reason or a parcel named twice (or named on an unpaid
    ///   order, which is cancelled whole); `notFound` for an order not the caller's or a parcel not
    ///   of the order; `already_shipped` when a parcel to cancel has left; `illegalTransition`
    ///   for an order that is closed or a parcel already cancelled; gateway errors from the refund
    ///   (a lost answer leaves the refund pending for reconciliation).
    public func cancel(_ id: OrderID, reason: String, shipments named: [ShipmentID]? = nil,
                       by principal: Principal) async throws(KeyCatError) -> Order {
        let reason = try Self.checkedReason(reason)
        if let named, named.isEmpty || Set(named).count != named.count {
            throw KeyCatError.validation("shipments", "name each parcel to cancel once")
        }
        let current = try await visibleOrder(id, by: principal)
        switch current.status {
        case .awaitingPayment:
            guard named == nil else {
                throw KeyCatError.validation("shipments", "an unpaid order is cancelled whole; name no parcel")
            }
            return try await move(id, to: .cancelled, by: principal, detail: reason) { $0.returnsStock = true }
        case .paid, .shipped, .delivered, .partiallyRefunded:
            let parcels = try Self.parcels(named, of: current)
            if let left = parcels.first(where: \.hasLeft) { throw KeyCatError.parcelLeft(left) }
            let live = current.shipments.filter { $0.status != .cancelled }
            if current.status == .paid, named == nil || Set(parcels.map(\.id)) == Set(live.map(\.id)) {
                return try await refund(current, RefundRequest(reason: reason, restock: true), cancelling: true, by: principal)
            }
            guard !parcels.isEmpty else { try current.status.checkMove(to: .cancelled); return current }
            return try await cancel(parcels, of: current, reason: reason, by: principal)
        case .cancelled, .expired, .failed, .refunded:
            try current.status.checkMove(to: .cancelled)
            return current
        }
    }

    /// The parcels a cancel names, or (nil) every live parcel of the order; a cancelled one is
    /// an illegal transition, one not of the order is not found.
    private static func parcels(_ named: [ShipmentID]?, of order: Order) throws(KeyCatError) -> [Shipment] {
        guard let named else { return order.shipments.filter { $0.status != .cancelled } }
        var parcels: [Shipment] = []
        for id in named {
            guard let parcel = order.shipments.first(where: { $0.id == id }) else { throw KeyCatError.notFound("shipment", id) }
            guard parcel.status != .cancelled else { try parcel.status.checkMove(to: .cancelled); continue }
            parcels.append(parcel)
        }
        return parcels
    }

    /// Refunds each pending parcel's unrefunded lines and fee, one line refund a parcel, its
    /// units back to stock; each refund's transaction checks again that its parcel is pending.
    private func cancel(_ parcels: [Shipment], of order: Order, reason: String, by principal: Principal) async throws(KeyCatError) -> Order {
        var order = order
        for parcel in parcels {
            guard order.status.holdsPayment, let impUID = order.impUID else {
                throw KeyCatError(.illegalTransition, "order \(order.id) holds no payment to refund", context: ["status": order.status.rawValue])
            }
            let lines = parcel.lines.filter { order.lines.indices.contains($0) && order.lines[$0].refundedAt == nil }
            let refund = try await shipments.beginLineRefund(
                orderID: order.id, expectedStatus: order.status, shipmentID: parcel.id, lines: lines, amount: nil, reason: reason,
                restock: true, cancelling: true, bySeller: false, requestKey: nil, requestFingerprint: nil,
                requestedBy: principal.auditActor, at: clock.now())
            order = try await send(refund, impUID: impUID, action: "shipment.cancel", by: principal)
        }
        return order
    }
}
