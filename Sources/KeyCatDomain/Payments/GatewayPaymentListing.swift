import Foundation

/// Which of the gateway's payments to list: by status, in a window of start times, one page at a
/// time (PortOne v1 `GET /payments/status/{payment_status}?from=&to=&page=&limit=`).
public struct GatewayPaymentQuery: Sendable, Hashable {
    /// nil lists every status (`all`).
    public var status: GatewayPayment.Status?
    /// Payments whose attempt started at or after this time…
    public var from: Date
    /// …and at or before this one.
    public var to: Date
    /// 1-based.
    public var page: Int
    /// 1–100.
    public var limit: Int

    public init(status: GatewayPayment.Status?, from: Date, to: Date, page: Int = 1, limit: Int = 100) {
        self.status = status
        self.from = from
        self.to = to
        self.page = page
        self.limit = limit
    }
}

/// One page of the gateway's payments, newest first, with the page numbers around it.
public struct GatewayPaymentPage: Sendable, Hashable {
    /// How many payments match the query in all.
    public var total: Int
    /// The page before this one, nil on the first.
    public var previous: Int?
    /// The page after this one, nil on the last.
    public var next: Int?
    public var payments: [GatewayPayment]

    public init(total: Int, previous: Int?, next: Int?, payments: [GatewayPayment]) {
        self.total = total
        self.previous = previous
        self.next = next
        self.payments = payments
    }
}

extension PaymentGateway {
    /// Every payment matching `status` in `window`, walking the pages. A payment that moves
    /// between pages while they are read (offset paging) appears once.
    public func allPayments(status: GatewayPayment.Status?, in window: DateInterval) async throws(KeyCatError) -> [GatewayPayment] {
        var query = GatewayPaymentQuery(status: status, from: window.start, to: window.end)
        var seen: Set<String> = []
        var all: [GatewayPayment] = []
        while true {
            let page = try await payments(query)
            for payment in page.payments where seen.insert(payment.impUID).inserted { all.append(payment) }
            guard let next = page.next, next > query.page else { return all }
            query.page = next
        }
    }
}
