import Foundation

extension CheckoutService {
    /// Cross-checks both sides in `window`, changing nothing: every payment paid at the PG has
    /// its paid order of the same amount; what the PG has cancelled of a payment equals what
    /// KeyCat refunded of its order; and every order KeyCat holds paid (or refunded) has its PG
    /// payment, paid (or cancelled) for the same amount. Payments being voided, refunds still
    /// pending and orders awaiting a payment the PG holds are reported too: reconciliation
    /// settles them.
    ///
    /// - Throws: a gateway error when the PG cannot be listed or read; `storage`.
    public func checkGateway(window: DateInterval) async throws(KeyCatError) -> GatewayCheckReport {
        var report = GatewayCheckReport(from: window.start, to: window.end)
        let listed = try await gateway.allPayments(status: nil, in: window)
        report.gatewayPaymentsChecked = listed.count
        let matcher = GatewayMatcher(orders: orders)
        var checkedOrders: Set<OrderID> = []
        for payment in listed where payment.status == .paid && payment.cancellableAmount > .zero {
            switch try await matcher.match(payment) {
            case let .accounted(order):
                checkedOrders.insert(order.id)
                if let problem = Self.refundMismatch(order, payment) { report.problems.append(problem) }
            case let .awaiting(order):
                report.problems.append("\(payment.impUID) is paid at the PG but order \(order.id) still awaits payment (reconcile settles it)")
            case let .beingVoided(order):
                report.problems.append("\(payment.impUID) of order \(order.id) is being voided but still paid at the PG (reconcile retries the void)")
            case let .orphan(orphan):
                report.orphans.append(orphan)
                report.problems.append(orphan.summary)
            }
        }
        let byImpUID = Dictionary(listed.map { ($0.impUID, $0) }, uniquingKeysWith: { first, _ in first })
        for order in try await ordersHoldingPayments(createdIn: window) where !checkedOrders.contains(order.id) {
            report.ordersChecked += 1
            guard let impUID = order.impUID else { continue }
            let payment: GatewayPayment
            if let found = byImpUID[impUID] {
                payment = found
            } else {
                do throws(KeyCatError) {
                    payment = try await gateway.payment(impUID: impUID)
                } catch where error.code == .paymentNotFound {
                    report.problems.append("order \(order.id) is \(order.status.rawValue) by \(impUID), which the PG does not have")
                    continue
                }
            }
            if payment.amount != order.amount {
                report.problems.append("order \(order.id) is \(order.amount) but its PG payment \(impUID) is \(payment.amount)")
            } else if payment.status != .paid && payment.status != .cancelled {
                report.problems.append("order \(order.id) is \(order.status.rawValue) but its PG payment \(impUID) is \(payment.status.rawValue)")
            } else if let problem = Self.refundMismatch(order, payment) {
                report.problems.append(problem)
            }
        }
        report.ordersChecked += checkedOrders.count
        return report
    }

    /// What the PG cancelled of `payment` against what KeyCat refunded of `order`.
    private static func refundMismatch(_ order: Order, _ payment: GatewayPayment) -> String? {
        let cancelled = payment.status == .cancelled ? payment.amount : payment.cancelledAmount
        guard cancelled != order.refundedAmount else { return nil }
        return "order \(order.id): the PG has cancelled \(cancelled) of \(payment.impUID), KeyCat refunded \(order.refundedAmount)"
            + (cancelled > order.refundedAmount ? " (a refund pending? reconcile completes it)" : "")
    }

    /// Orders created in `window` that hold or held a payment (paid, shipped, delivered,
    /// refunded in part or in full, or cancelled after payment), newest first per status.
    private func ordersHoldingPayments(createdIn window: DateInterval) async throws(KeyCatError) -> [Order] {
        var found: [Order] = []
        let statuses: [OrderStatus] = [.paid, .shipped, .delivered, .partiallyRefunded, .refunded, .cancelled]
        for status in statuses {
            var position: CursorPosition?
            walk: while true {
                let page = try await orders.list(OrderFilter(status: status), after: position, limit: 100)
                for order in page {
                    if order.createdAt < window.start { break walk }
                    if order.createdAt <= window.end, order.impUID != nil { found.append(order) }
                }
                guard page.count == 100, let last = page.last else { break }
                position = CursorPosition(sortKey: last.createdAt.millisecondsSince1970, id: last.id.rawValue)
            }
        }
        return found
    }
}
