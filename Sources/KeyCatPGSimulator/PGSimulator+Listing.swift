import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// `GET /payments/status/{payment_status}?from=&to=&page=&limit=` (PortOne v1): the payments
    /// in `all | ready | paid | cancelled | failed` whose attempt started between `from` and `to`
    /// (unix seconds, inclusive; default the 90 days up to now), newest first, `limit` (1–100,
    /// default 20) per 1-based `page`. Answers `{total, previous, next, list}`, where `previous`
    /// and `next` are page numbers, 0 when there is none.
    func listPayments(_ request: TransportRequest, status: String) throws -> TransportResponse {
        let filter: PGPaymentRecord.Status?
        if status == "all" {
            filter = nil
        } else if let known = PGPaymentRecord.Status(rawValue: status) {
            filter = known
        } else {
            throw PGFailure(.invalidRequest, "payment_status must be all, ready, paid, cancelled or failed")
        }
        let query = request.queryParameters
        func integer(_ name: String, default value: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
            guard let text = query[name] else { return value }
            guard let number = Int64(text), range.contains(number) else {
                throw PGFailure(.invalidRequest, "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        let to = try integer("to", default: Int64(now().timeIntervalSince1970), in: 0...Int64(Int32.max) * 4)
        let from = try integer("from", default: max(0, to - 90 * 24 * 60 * 60), in: 0...to)
        let limit = Int(try integer("limit", default: 20, in: 1...100))
        let page = Int(try integer("page", default: 1, in: 1...1_000_000))
        let (total, payments) = try store.payments(
            status: filter, from: Date(timeIntervalSince1970: TimeInterval(from)),
            to: Date(timeIntervalSince1970: TimeInterval(to)), offset: (page - 1) * limit, limit: limit)
        let list = try payments.map { PGWire.json($0, cancellations: try store.cancellations(impUID: $0.impUID)) }
        return PGWire.success([
            "total": total, "previous": page > 1 ? page - 1 : 0, "next": page * limit < total ? page + 1 : 0,
            "list": list,
        ] as [String: Any])
    }
}
