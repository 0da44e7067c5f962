import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// `GET /payments/status/{payment_status}?from=&to=&page=&limit=&sorting=` (PortOne v1): the
    /// payments in `all | ready | paid | cancelled | failed` whose attempt started between `from`
    /// and `to` (unix seconds, inclusive; default the 90 days up to now), newest started first
    /// unless `sorting` says otherwise, `limit` (1–100, default 20) per 1-based `page`. Answers
    /// `{total, previous, next, list}`, where `previous` and `next` are page numbers, 0 when there
    /// is none.
    func listPayments(_ request: TransportRequest, status: String) throws -> TransportResponse {
        var query = PGPaymentQuery()
        query.status = try paymentStatus(status)
        query.sorting = try sorting(request)
        let to = try integer(request, "to", default: Int64(now().timeIntervalSince1970), in: 0...Int64(Int32.max) * 4)
        let from = try integer(request, "from", default: max(0, to - 90 * 24 * 60 * 60), in: 0...to)
        // Times are whole seconds on the wire: `to` takes in the whole of its second.
        query.started = Date(timeIntervalSince1970: TimeInterval(from))...Date(timeIntervalSince1970: TimeInterval(to) + 0.999_999)
        query.limit = Int(try integer(request, "limit", default: 20, in: 1...100))
        let page = Int(try integer(request, "page", default: 1, in: 1...1_000_000))
        query.offset = (page - 1) * query.limit
        return PGWire.success(try pageAnswer(query, page: page).json)
    }
}
