import Foundation
import KeyCatDomain
import Synchronization

extension InMemoryOrderRepository {
    @discardableResult
    package func recordVoiding(_ payment: OrderPayment) throws(KeyCatError) -> Bool {
        state.withLock { state in
            if let recorded = state.payments.first(where: { $0.impUID == payment.impUID }) {
                return recorded.status == .voiding || recorded.status == .voided
            }
            var voiding = payment
            voiding.status = .voiding
            voiding.id = Int64(state.payments.count + 1)
            state.payments.append(voiding)
            return true
        }
    }

    package func markVoided(impUID: String, audit: AuditEntry?) throws(KeyCatError) {
        state.withLock { state in
            guard let index = state.payments.firstIndex(where: { $0.impUID == impUID && $0.status == .voiding }) else { return }
            state.payments[index].status = .voided
            if let audit { state.audit.append(audit) }
        }
    }

    package func paymentsToVoid(limit: Int) throws(KeyCatError) -> [OrderPayment] {
        state.withLock { Array($0.payments.filter { $0.status == .voiding }.prefix(limit)) }
    }

    package func payments(of buyerID: UserID, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [OrderPayment] {
        state.withLock { state in
            Array(state.payments
                .filter { state.orders[$0.orderID]?.buyerID == buyerID && $0.id < (position?.id ?? Int64.max) }
                .sorted { $0.id > $1.id }.prefix(limit))
        }
    }

    package func payments(of orderID: OrderID) throws(KeyCatError) -> [OrderPayment] {
        state.withLock { $0.payments.filter { $0.orderID == orderID } }
    }

    package func beginRefund(orderID: OrderID, expectedStatus: OrderStatus, amount: Money?, reason: String, restock: Bool,
                             target: (_ isFull: Bool) -> OrderStatus, requestKey: String?, requestFingerprint: String?,
                             requestedBy: String, at now: Date) throws(KeyCatError) -> Refund {
        try state.withLock { state throws(KeyCatError) -> Refund in
            guard let order = state.orders[orderID] else { throw KeyCatError.notFound("order", orderID) }
            guard order.status == expectedStatus else {
                throw KeyCatError(.illegalTransition, "order \(orderID) became \(order.status.rawValue) meanwhile; read it again")
            }
            guard !state.refunds.contains(where: { $0.orderID == orderID && $0.status == .pending }) else {
                throw KeyCatError(.requestInProgress, "another refund of order \(orderID) is in progress; retry later")
            }
            let balance = order.refundableAmount
            let refundAmount = amount ?? balance
            guard refundAmount <= balance, refundAmount > .zero else {
                throw KeyCatError(.cancelAmountExceedsCancellable, "\(refundAmount) is more than the refundable \(balance)",
                                  context: ["refundable": "\(balance.won)", "requested": "\(refundAmount.won)"])
            }
            let next = target(refundAmount == balance)
            try order.status.checkMove(to: next)
            if next == .cancelled, let left = order.shipments.first(where: \.hasLeft) {
                throw KeyCatError.parcelLeft(left)
            }
            if let requestKey, state.refunds.contains(where: {
                $0.orderID == orderID && $0.requestKey == requestKey && $0.status != .failed
            }) {
                throw KeyCatError(.duplicate, "a refund of order \(orderID) already carries that key")
            }
            let refund = Refund(id: Int64(state.refunds.count + 1), orderID: orderID, amount: refundAmount, checksum: balance,
                                reason: reason, restock: restock, target: next, status: .pending, createdAt: now,
                                requestKey: requestKey, requestFingerprint: requestFingerprint, requestedBy: requestedBy)
            state.refunds.append(refund)
            return refund
        }
    }

    package func completeRefund(_ refund: Refund, audit: AuditEntry?, at now: Date) throws(KeyCatError) -> Order {
        try state.withLock { state throws(KeyCatError) -> Order in
            guard var order = state.orders[refund.orderID] else { throw KeyCatError.notFound("order", refund.orderID) }
            guard let index = state.refunds.firstIndex(where: { $0.id == refund.id && $0.status == .pending }) else { return order }
            state.refunds[index].status = .done
            // As the SQLite repository: the refunded amount always grows (the money moved), the
            // status moves only from one holding a payment, and units come back only when they
            // never left, or when the operator restocks a full refund.
            order.refundedAmount = Money(won: order.refundedAmount.won + refund.amount.won)
            order.updatedAt = now
            if order.status.holdsPayment {
                order.status = refund.target == .cancelled && order.status != .paid ? .refunded : refund.target
            }
            let restocks = order.status == .cancelled || (refund.restock && refund.target == .refunded && order.status == .refunded)
            if restocks { Self.returnStock(&order, in: &state) }
            if let audit { state.audit.append(audit) }
            state.orders[order.id] = order
            return order
        }
    }

    package func failRefund(_ refund: Refund, audit: AuditEntry, at now: Date) throws(KeyCatError) {
        state.withLock { state in
            if let index = state.refunds.firstIndex(where: { $0.id == refund.id && $0.status == .pending }) {
                state.refunds[index].status = .failed
                state.audit.append(audit)
            }
        }
    }

    package func pendingRefunds(begunBy: Date, limit: Int) throws(KeyCatError) -> [Refund] {
        state.withLock { Array($0.refunds.filter { $0.status == .pending && $0.createdAt <= begunBy }.prefix(limit)) }
    }

    package func refund(of orderID: OrderID, requestKey: String) throws(KeyCatError) -> Refund? {
        state.withLock { $0.refunds.first { $0.orderID == orderID && $0.requestKey == requestKey && $0.status != .failed } }
    }

    package func refunds(of orderID: OrderID) throws(KeyCatError) -> [Refund] {
        state.withLock { $0.refunds.filter { $0.orderID == orderID } }
    }
}
