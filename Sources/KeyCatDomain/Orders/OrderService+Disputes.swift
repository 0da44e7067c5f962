import Foundation

/// Disputes (분쟁): a buyer takes a seller's rejection, or a request its seller left undecided,
/// to the shop's operators, who rule with ``approveReturn(_:restock:by:)`` or
/// ``rejectReturn(_:reason:by:)`` (docs/marketplace.md, "Disputes").
extension OrderService {
    /// Disputes its seller's rejection of a return, once and within ``disputeWindow`` of it
    /// (분쟁 신청) — or takes to the operators a request its seller has left undecided for that
    /// long: the request becomes `disputed`, and the shop's operators rule on it
    /// (``approveReturn(_:restock:by:)``, ``rejectReturn(_:reason:by:)``); its seller may still
    /// approve it. Until then the parcel is not confirmed, by time or by its buyer. A window of
    /// 0 takes no disputes.
    ///
    /// - Throws: `validation` for a bad reason; `notFound` for a request not of the caller's
    ///   orders; `illegalTransition` when it is neither a seller's rejection nor a request
    ///   undecided for the window (approved, rejected by an operator, disputed before, or asked
    ///   for too recently), the window has passed, the parcel's receipt is confirmed or its
    ///   order holds no payment.
    public func disputeReturn(_ id: ReturnRequestID, reason: String, by principal: Principal) async throws(KeyCatError) -> ReturnRequest {
        let reason = try Self.checkedReason(reason)
        guard let request = try await shipments.returnRequest(id), principal.role == .admin || request.buyerID == principal.userID else {
            throw KeyCatError.notFound("return request", id)
        }
        let context = ["status": request.status.rawValue]
        let now = clock.now()
        let since = now.addingTimeInterval(-disputeWindow)
        let order = try await settlement.reload(request.orderID)
        if request.status == .requested {
            // A seller who leaves a request undecided for the window leaves it to the operators.
            guard disputeWindow > 0, request.createdAt <= since else {
                throw KeyCatError(.illegalTransition, disputeWindow > 0
                                  ? "return request \(id) waits for its seller's decision: it may be taken to the shop's operators "
                                    + "once it has waited \(Self.duration(disputeWindow)) undecided"
                                  : "return request \(id) waits for its seller's decision: this shop takes no disputes", context: context)
            }
        } else {
            guard disputeWindow > 0, request.isDisputable, let rejectedAt = request.decidedAt else {
                let why = switch request.status {
                case .disputed: "is already disputed"
                case .rejected where disputeWindow == 0: "was rejected: this shop takes no disputes"
                case .rejected: request.disputedAt == nil ? "was rejected by the shop's operators: that is final" : "was ruled on: that is final"
                case .requested, .approved: "is \(request.status.rawValue): only a seller's rejection, or a request its seller left undecided, is disputed"
                }
                throw KeyCatError(.illegalTransition, "return request \(id) \(why)", context: context)
            }
            // The window runs from the rejection, or from the delivery when the goods came later:
            // a rejection made while the parcel was on its way leaves the buyer the window once it
            // is there. When the shop tracks parcels, the delivery is its carrier's (or when KeyCat
            // learnt of it, if later), and a parcel no carrier has delivered stays disputable
            // until time may confirm it untracked.
            // The same rule as the store's (`disputableRejection`), by the same cutoffs.
            let parcel = order.shipments.first { $0.id == request.shipmentID }
            let deliveredRecently: Bool = if let tracking = trackingCutoffs(at: now), let parcel {
                if let carrierDelivered = parcel.carrierDeliveredAt {
                    max(carrierDelivered, parcel.carrierNoticedAt ?? carrierDelivered) > since
                } else {
                    (parcel.shippedAt ?? parcel.deliveredAt).map { $0 > tracking.untrackedShippedBefore } ?? true
                }
            } else {
                parcel?.status != .delivered || (parcel?.deliveredAt ?? .distantFuture) > since
            }
            guard rejectedAt > since || deliveredRecently else {
                throw KeyCatError(.illegalTransition, "return request \(id) was rejected, and its parcel delivered, more than "
                                  + "\(Self.duration(disputeWindow)) ago: it can no longer be disputed", context: context)
            }
        }
        guard order.status.holdsPayment else {
            throw KeyCatError(.illegalTransition, "order \(order.id) is \(order.status.rawValue): nothing of it is disputed",
                              context: ["status": order.status.rawValue])
        }
        let audit = AuditEntry(actor: principal.auditActor, action: "return.dispute", target: "return:\(id)",
                               detail: "shipment \(request.shipmentID): \(reason)", at: now)
        guard let disputed = try await shipments.disputeReturn(id, dispute: reason, rejectedSince: since, tracking: trackingCutoffs(at: now),
                                                               audit: audit, at: now) else {
            let current = try await shipments.returnRequest(id)
            throw KeyCatError(.illegalTransition, current?.status == .disputed
                              ? "return request \(id) is already disputed"
                              : "shipment \(request.shipmentID)'s receipt was confirmed: its return can no longer be disputed",
                              context: ["status": current?.status.rawValue ?? request.status.rawValue])
        }
        return disputed
    }

    /// A period for messages, in whole days, hours or minutes: "3 days", "1 hour", "0 minutes".
    static func duration(_ interval: TimeInterval) -> String {
        let (count, unit) = interval >= 86_400 ? (Int(interval / 86_400), "day") : interval >= 3_600 ? (Int(interval / 3_600), "hour")
            : (Int(interval / 60), "minute")
        return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}
