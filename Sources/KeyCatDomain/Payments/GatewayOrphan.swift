import Foundation

/// A payment the PG holds as paid that KeyCat does not account for: the buyer's money is at the
/// PG, but no order of KeyCat's is paid by it. Found by walking the PG's own listing, so it is
/// found even when KeyCat lost the order (a restore from an older backup, a lost write).
public struct GatewayOrphan: Sendable, Hashable, Codable {
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// KeyCat has no order with the payment's merchant UID.
        case noOrder = "no_order"
        /// The order exists but is not paid by this payment (expired, cancelled, failed), or
        /// KeyCat recorded the payment voided while the PG still holds it.
        case orderNotPaid = "order_not_paid"
        /// The order is paid by this payment, but the amounts differ.
        case amountDiffers = "amount_differs"
        /// The order is paid by another payment: the buyer was charged twice.
        case paidTwice = "paid_twice"
    }

    public var impUID: String
    public var merchantUID: String
    /// What is still paid (cancellable) at the PG.
    public var amount: Money
    public var orderID: OrderID?
    public var reason: Reason

    public init(impUID: String, merchantUID: String, amount: Money, orderID: OrderID?, reason: Reason) {
        self.impUID = impUID
        self.merchantUID = merchantUID
        self.amount = amount
        self.orderID = orderID
        self.reason = reason
    }

    /// One sentence for reports.
    public var summary: String {
        let order = orderID.map { "order \($0)" } ?? "no order"
        return "\(impUID) (\(merchantUID)) holds \(amount) paid at the PG: \(reason.rawValue.replacingOccurrences(of: "_", with: " ")) (\(order))"
    }
}

/// How a payment paid at the PG stands against KeyCat's orders.
enum GatewayMatch: Sendable, Hashable {
    /// It pays its order, which holds it (or a refund of it is under way).
    case accounted(Order)
    /// Its order still awaits payment: settling it (as confirm would) makes the order paid.
    case awaiting(Order)
    /// KeyCat recorded it `voiding`: the cancel at the PG is under way.
    case beingVoided(Order)
    case orphan(GatewayOrphan)
}

/// Matches the PG's paid payments to orders, by merchant UID, payment id and amount.
struct GatewayMatcher: Sendable {
    let orders: any OrderRepository

    /// Where `payment` (paid at the PG) stands.
    func match(_ payment: GatewayPayment) async throws(KeyCatError) -> GatewayMatch {
        func orphan(_ reason: GatewayOrphan.Reason, _ order: Order?) -> GatewayMatch {
            .orphan(GatewayOrphan(impUID: payment.impUID, merchantUID: payment.merchantUID, amount: payment.cancellableAmount,
                                  orderID: order?.id, reason: reason))
        }
        guard let order = try await orders.find(merchantUID: payment.merchantUID) else { return orphan(.noOrder, nil) }
        let recorded = try await orders.payments(of: order.id).first { $0.impUID == payment.impUID }
        switch recorded?.status {
        case .voiding?: return .beingVoided(order)
        case .voided?: return orphan(.orderNotPaid, order)
        case .paid?, nil: break
        }
        if order.impUID == payment.impUID {
            return payment.amount == order.amount ? .accounted(order) : orphan(.amountDiffers, order)
        }
        if order.status == .awaitingPayment { return .awaiting(order) }
        if order.impUID != nil { return orphan(.paidTwice, order) }
        return orphan(payment.amount == order.amount ? .orderNotPaid : .amountDiffers, order)
    }
}
