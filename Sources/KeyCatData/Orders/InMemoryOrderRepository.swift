import Foundation
import KeyCatDomain
import Synchronization

/// Orders in memory, for tests of the use cases without a file. Behaves as
/// ``SQLOrderRepository`` does: conditional moves, stock taken all-or-nothing with the order,
/// one paid payment per order, refunds within the balance. It keeps its own stock per product
/// (``setStock(_:of:)``), since there is no products table to update.
package final class InMemoryOrderRepository: OrderRepository {
    struct State {
        var orders: [OrderID: Order] = [:]
        var stock: [ProductID: Int] = [:]
        var payments: [OrderPayment] = []
        var refunds: [Refund] = []
        var outcomeUnknown: Set<OrderID> = []
        var requestKeys: [String: OrderID] = [:]
        var audit: [AuditEntry] = []
        var nextID: Int64 = 1
    }

    let state = Mutex(State())
    private let carts: InMemoryCartRepository?

    /// - Parameter carts: the carts paid orders remove their products from.
    package init(carts: InMemoryCartRepository? = nil) { self.carts = carts }

    /// Sets the units left of a product.
    package func setStock(_ units: Int, of productID: ProductID) { state.withLock { $0.stock[productID] = units } }
    /// The units left of a product.
    package func stock(of productID: ProductID) -> Int { state.withLock { $0.stock[productID] ?? 0 } }
    /// The audit entries recorded with moves, oldest first.
    package var auditEntries: [AuditEntry] { state.withLock { $0.audit } }

    package func create(_ order: NewOrder, at now: Date) throws(KeyCatError) -> Order {
        try state.withLock { state throws(KeyCatError) -> Order in
            if let limits = order.holdLimits {
                try limits.check(openOrders: state.orders.values.filter {
                    $0.buyerID == order.buyerID && $0.status == .awaitingPayment && $0.expiresAt > now
                }.count)
            }
            var placed = order.lines
            for index in placed.indices {
                let line = placed[index]
                if Self.mayTake(line, of: order, at: now, in: state) { continue }
                // A product found short (or held up to its caps) first gets back the units of its
                // expired reservations.
                Self.expireReservations(of: line.productID, at: now, in: &state)
                if Self.mayTake(line, of: order, at: now, in: state) { continue }
                let left = state.stock[line.productID] ?? 0
                if order.holdLimits != nil, left >= line.quantity {
                    placed[index].stockTaken = false
                    continue
                }
                throw KeyCatError(.outOfStock, "only \(left) of \(line.title) left, \(line.quantity) wanted",
                                  context: ["product_id": "\(line.productID)", "title": line.title, "available": "\(left)",
                                            "requested": "\(line.quantity)"])
            }
            guard !state.orders.values.contains(where: { $0.merchantUID == order.merchantUID }) else {
                throw KeyCatError(.duplicate, "it already exists")
            }
            for line in placed where line.stockTaken { state.stock[line.productID, default: 0] -= line.quantity }
            let created = Order(
                id: OrderID(state.nextID), merchantUID: order.merchantUID, buyerID: order.buyerID, lines: placed,
                itemsTotal: order.itemsTotal, deliveryTotal: order.deliveryTotal, amount: order.amount,
                status: .awaitingPayment, expiresAt: order.expiresAt, createdAt: now, updatedAt: now)
            state.nextID += 1
            state.orders[created.id] = created
            if let key = order.requestKey { state.requestKeys["\(order.buyerID)|\(key)"] = created.id }
            return created
        }
    }

    /// Whether `line` may take its units now: the shelf has them and, with hold limits, the
    /// holding caps allow it (``StockHoldLimits/mayHold(_:onShelf:held:heldByBuyer:)``).
    private static func mayTake(_ line: OrderLine, of order: NewOrder, at now: Date, in state: State) -> Bool {
        let onShelf = state.stock[line.productID] ?? 0
        guard let limits = order.holdLimits else { return onShelf >= line.quantity }
        var held = 0
        var heldByBuyer = 0
        for open in state.orders.values where open.status == .awaitingPayment {
            for taken in open.lines where taken.productID == line.productID && taken.stockTaken {
                held += taken.quantity
                if open.buyerID == order.buyerID, open.expiresAt > now { heldByBuyer += taken.quantity }
            }
        }
        return limits.mayHold(line.quantity, onShelf: onShelf, held: held, heldByBuyer: heldByBuyer)
    }

    /// Expires the orders holding `product` whose reservation ended ``CheckoutService/latePaymentGrace``
    /// before `now` and whose PG outcome is not in doubt, giving back the units they took;
    /// `except` is the order being paid.
    private static func expireReservations(of product: ProductID, except: OrderID? = nil, at now: Date, in state: inout State) {
        let expired = state.orders.values.filter {
            $0.id != except && $0.status == .awaitingPayment && $0.expiresAt.addingTimeInterval(CheckoutService.latePaymentGrace) <= now
                && !state.outcomeUnknown.contains($0.id)
                && $0.lines.contains { $0.productID == product }
        }
        for var stale in expired {
            stale.status = .expired
            stale.updatedAt = now
            returnStock(&stale, in: &state)
            state.orders[stale.id] = stale
        }
    }

    package func find(_ id: OrderID) throws(KeyCatError) -> Order? { state.withLock { $0.orders[id] } }

    package func find(buyer: UserID, requestKey: String) throws(KeyCatError) -> Order? {
        state.withLock { state in state.requestKeys["\(buyer)|\(requestKey)"].flatMap { state.orders[$0] } }
    }

    package func find(merchantUID: String) throws(KeyCatError) -> Order? {
        state.withLock { $0.orders.values.first { $0.merchantUID == merchantUID } }
    }

    package func list(_ filter: OrderFilter, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [Order] {
        let key = { (order: Order) in (order.createdAt.millisecondsSince1970, order.id.rawValue) }
        return state.withLock { state in
            state.orders.values
                .filter { order in filter.status.map { order.status == $0 } ?? true }
                .filter { order in filter.buyerID.map { order.buyerID == $0 } ?? true }
                .filter { order in
                    filter.sellerID.map { seller in
                        order.lines.contains { $0.sellerID == seller } || order.shipments.contains { $0.sellerID == seller }
                    } ?? true
                }
                .filter { order in filter.placedFromMilliseconds.map { order.createdAt.millisecondsSince1970 >= $0 } ?? true }
                .filter { order in filter.placedBeforeMilliseconds.map { order.createdAt.millisecondsSince1970 < $0 } ?? true }
                .filter { order in position.map { key(order) < ($0.sortKey, $0.id) } ?? true }
                .sorted { key($0) > key($1) }
                .prefix(limit).map { $0 }
        }
    }

    package func apply(_ transition: OrderTransition, at now: Date) throws(KeyCatError) -> Order? {
        let moved = try state.withLock { state throws(KeyCatError) -> Order? in
            guard var order = state.orders[transition.orderID], order.status == transition.from else { return nil }
            if let deadline = transition.onlyIfExpiredBy, order.expiresAt > deadline { return nil }
            if transition.releasesRequestKey { state.requestKeys = state.requestKeys.filter { $0.value != transition.orderID } }
            if transition.requiresNoPendingRefund,
               state.refunds.contains(where: { $0.orderID == transition.orderID && $0.status == .pending }) { return nil }
            if transition.from == .awaitingPayment, transition.to == .paid {
                // The lines sold on payment take their units now, or the move does not happen.
                if let payment = transition.payment, state.payments.contains(where: { $0.impUID == payment.impUID }) {
                    throw KeyCatError(.duplicate, "it already exists")
                }
                for line in order.lines where !line.stockTaken && (state.stock[line.productID] ?? 0) < line.quantity {
                    Self.expireReservations(of: line.productID, except: order.id, at: now, in: &state)
                    guard (state.stock[line.productID] ?? 0) >= line.quantity else {
                        throw KeyCatError(.outOfStock, "\(line.title) sold out before the payment arrived",
                                          context: ["product_id": "\(line.productID)", "title": line.title,
                                                    "requested": "\(line.quantity)"])
                    }
                }
                for index in order.lines.indices where !order.lines[index].stockTaken {
                    state.stock[order.lines[index].productID, default: 0] -= order.lines[index].quantity
                    order.lines[index].stockTaken = true
                }
            }
            if let payment = transition.payment {
                guard !state.payments.contains(where: { $0.impUID == payment.impUID }) else {
                    throw KeyCatError(.duplicate, "it already exists")
                }
                var recorded = payment
                recorded.id = Int64(state.payments.count + 1)
                state.payments.append(recorded)
                if payment.status == .paid {
                    order.impUID = payment.impUID
                    order.paidAt = now
                }
            }
            order.status = transition.to
            order.updatedAt = now
            if let carrier = transition.carrier {
                order.carrier = carrier
                order.trackingNumber = transition.trackingNumber
            }
            if transition.returnsStock { Self.returnStock(&order, in: &state) }
            state.outcomeUnknown.remove(order.id)
            if let audit = transition.audit { state.audit.append(audit) }
            state.orders[order.id] = order
            return order
        }
        guard let moved else { return nil }
        if transition.clearsCart { carts?.removeBought(moved.lines.map(\.productID), for: moved.buyerID) }
        return moved
    }

    static func returnStock(_ order: inout Order, in state: inout State) {
        guard !order.stockReturned else { return }
        order.stockReturned = true
        for line in order.lines where line.stockTaken { state.stock[line.productID, default: 0] += line.quantity }
    }

    package func setOutcomeUnknown(_ id: OrderID, _ unknown: Bool) throws(KeyCatError) {
        state.withLock { state in
            guard state.orders[id]?.status == .awaitingPayment else { return }
            if unknown { state.outcomeUnknown.insert(id) } else { state.outcomeUnknown.remove(id) }
        }
    }

    package func ordersToReconcile(at now: Date, limit: Int) throws(KeyCatError) -> [Order] {
        state.withLock { state in
            state.orders.values
                .filter { $0.status == .awaitingPayment && ($0.expiresAt <= now || state.outcomeUnknown.contains($0.id)) }
                .sorted { ($0.expiresAt, $0.id) < ($1.expiresAt, $1.id) }
                .prefix(limit).map { $0 }
        }
    }
}
