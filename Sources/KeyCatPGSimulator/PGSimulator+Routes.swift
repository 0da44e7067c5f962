import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// Dispatches a request that got past the fault plan and the token check.
    func route(_ request: TransportRequest, endpoint: PGEndpoint) -> TransportResponse {
        do {
            let segments = pathSegments(request)
            switch endpoint {
            case .getToken: return try getToken(request)
            case .prepare: return try prepare(request, replacing: false)
            case .updatePrepared: return try prepare(request, replacing: true)
            case .prepared: return try readPrepared(merchantUID: segments[2])
            case .payment: return try readPayment(impUID: segments[1])
            case .findPayment: return try findPayment(request, segments: segments)
            case .findAllPayments: return try findAllPayments(request, segments: segments)
            case .paymentsByStatus: return try listPayments(request, status: segments[2])
            case .cancel: return try cancel(request)
            }
        } catch let failure as PGFailure {
            return PGWire.failure(failure)
        } catch {
            return PGWire.failure(.internalServerError, "simulator storage failed")
        }
    }

    /// The path's segments, percent-decoded.
    private func pathSegments(_ request: TransportRequest) -> [String] {
        request.pathWithoutQuery.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }

    /// Refuses a request without a valid, unexpired token: v1's 401 `Unauthorized`. The token
    /// may come bare (as v1's own clients send it) or after `Bearer `.
    func authorize(_ request: TransportRequest) throws {
        guard var token = request.header("Authorization")?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw PGFailure(.unauthorized)
        }
        if token.lowercased().hasPrefix("bearer ") { token.removeFirst(7) }
        guard try store.isTokenValid(token, at: now()) else { throw PGFailure(.unauthorized) }
    }

    /// `POST /users/getToken {imp_key, imp_secret}` → `{access_token, expired_at, now}`.
    private func getToken(_ request: TransportRequest) throws -> TransportResponse {
        let body = PGWire.parameters(request)
        guard PGWire.string(body["imp_key"]) == credentials.key,
              PGWire.string(body["imp_secret"]) == credentials.secret
        else { throw PGFailure(.unauthorized, "imp_key, imp_secret 인증정보가 올바르지 않습니다.") }
        let token = Base64URL.encode((try? SecureRandom.bytes(count: 24)) ?? [])
        let issuedAt = now()
        let expiresAt = issuedAt.addingTimeInterval(tokenLifetime.seconds)
        try store.insertToken(token, expiresAt: expiresAt)
        return PGWire.success([
            "access_token": token, "expired_at": Int64(expiresAt.timeIntervalSince1970),
            "now": Int64(issuedAt.timeIntervalSince1970),
        ])
    }

    /// `POST /payments/prepare {merchant_uid, amount}` registers the amount the buyer must pay;
    /// `PUT` changes it. As in v1, a second `POST` for the same merchant UID is refused ("이미
    /// 사전등록된"), whatever its amount: a client that retried a lost prepare reads the
    /// registration back with `GET /payments/prepare/{merchant_uid}`. Neither may touch a merchant
    /// UID that is already paid. Answers `{merchant_uid, amount}`.
    private func prepare(_ request: TransportRequest, replacing: Bool) throws -> TransportResponse {
        let body = PGWire.parameters(request)
        guard let merchantUID = PGWire.string(body["merchant_uid"]), merchantUID.count <= 40 else {
            throw PGFailure(status: 400, .missingParameter("merchant_uid"))
        }
        guard let amount = PGWire.int64(body["amount"]), amount > 0 else {
            throw PGFailure(status: 400, .missingParameter("amount"))
        }
        let prepared = try store.write { connection throws -> PGPrepared in
            if let latest = try PGStore.latestPayment(merchantUID: merchantUID, on: connection),
               latest.status == .paid || latest.status == .cancelled {
                throw PGFailure(.alreadyPaid(merchantUID))
            }
            let existing = try PGStore.prepared(merchantUID: merchantUID, on: connection)
            if replacing {
                guard existing != nil else { throw PGFailure(status: 404, .unknownPrepared) }
            } else if existing != nil {
                throw PGFailure(.alreadyPrepared)
            }
            let prepared = PGPrepared(merchantUID: merchantUID, amount: amount, preparedAt: now())
            try PGStore.save(prepared, on: connection)
            return prepared
        }
        return PGWire.success(["merchant_uid": prepared.merchantUID, "amount": prepared.amount])
    }

    /// `GET /payments/prepare/{merchant_uid}` → `{merchant_uid, amount}`; 404 when nothing is
    /// prepared.
    private func readPrepared(merchantUID: String) throws -> TransportResponse {
        guard let prepared = try store.prepared(merchantUID: merchantUID) else {
            throw PGFailure(status: 404, .unknownPrepared)
        }
        return PGWire.success(["merchant_uid": prepared.merchantUID, "amount": prepared.amount])
    }

    private func readPayment(impUID: String) throws -> TransportResponse {
        guard let payment = try store.payment(impUID: impUID) else {
            throw PGFailure(status: 404, .unknownPayment)
        }
        return PGWire.success(PGWire.json(payment, cancellations: try store.cancellations(impUID: impUID)))
    }

    /// `GET /payments/find/{merchant_uid}[/{payment_status}]?sorting=`: the first of the merchant
    /// UID's attempts (with that status) in `sorting` order, newest started by default.
    private func findPayment(_ request: TransportRequest, segments: [String]) throws -> TransportResponse {
        var query = try paymentQuery(request, merchantUID: segments[2], status: segments.count > 3 ? segments[3] : nil)
        query.limit = 1
        guard let found = try store.payments(query).page.first else {
            throw PGFailure(status: 404, .unknownPayment)
        }
        return PGWire.success(PGWire.json(found.payment, cancellations: found.cancellations))
    }

    /// `GET /payments/findAll/{merchant_uid}[/{payment_status}]?page=&sorting=`: every attempt of
    /// the merchant UID, 20 a page, as `{total, previous, next, list}`; 404 when there is none.
    private func findAllPayments(_ request: TransportRequest, segments: [String]) throws -> TransportResponse {
        var query = try paymentQuery(request, merchantUID: segments[2], status: segments.count > 3 ? segments[3] : nil)
        let page = try integer(request, "page", default: 1, in: 1...1_000_000)
        query.offset = Int(page - 1) * query.limit
        let answer = try pageAnswer(query, page: Int(page))
        guard answer.total > 0 else { throw PGFailure(status: 404, .unknownPayment) }
        return PGWire.success(answer.json)
    }

    /// `POST /payments/cancel {imp_uid | merchant_uid, amount?, checksum?, reason?}`: cancels the
    /// whole cancellable balance (no amount, or 0) or part of it. `checksum`, when sent, must equal
    /// the cancellable balance before this cancel, which makes a retried cancel safe: if the first
    /// one landed, the balance moved and the retry is refused. `imp_uid` wins when both are sent.
    /// Refusals are v1's: HTTP 200 with `code` 1.
    private func cancel(_ request: TransportRequest) throws -> TransportResponse {
        let body = PGWire.parameters(request)
        let impUID = PGWire.string(body["imp_uid"])
        let merchantUID = PGWire.string(body["merchant_uid"])
        guard impUID != nil || merchantUID != nil else {
            throw PGFailure(status: 400, PGRefusal(code: -1, message: "imp_uid 또는 merchant_uid 중 하나는 지정해주셔야합니다."))
        }
        let requested: Int64
        if body["amount"] == nil || (body["amount"] as? String)?.isEmpty == true {
            requested = 0
        } else {
            guard let amount = PGWire.int64(body["amount"]), amount >= 0 else {
                throw PGFailure(status: 400, .missingParameter("amount"))
            }
            requested = amount
        }
        // A checksum that is there but no whole number is refused, never read as no checksum: it
        // is what makes a retried cancel safe.
        let checksum: Int64?
        if let given = body["checksum"], !(given is NSNull), (given as? String)?.isEmpty != true {
            guard let number = PGWire.int64(given) else { throw PGFailure(status: 400, .missingParameter("checksum")) }
            checksum = number
        } else {
            checksum = nil
        }
        let reason = PGWire.string(body["reason"]) ?? "취소요청"
        let at = now()
        let (payment, cancellations) = try store.write { connection throws -> (PGPaymentRecord, [PGCancellation]) in
            let found = try impUID.map { try PGStore.payment(impUID: $0, on: connection) }
                ?? PGStore.latestPayment(merchantUID: merchantUID ?? "", on: connection)
            guard var payment = found else { throw PGFailure(.nothingToCancel) }
            switch payment.status {
            case .ready, .failed: throw PGFailure(.notPaid)
            case .cancelled: throw PGFailure(.alreadyCancelled)
            case .paid: break
            }
            let cancellable = payment.cancellableAmount
            if let checksum, checksum != cancellable {
                throw PGFailure(.checksumMismatch(checksum: checksum, cancellable: cancellable))
            }
            let amount = requested == 0 ? cancellable : requested
            guard amount <= cancellable else {
                throw PGFailure(.exceedsCancellable(amount: amount, cancellable: cancellable))
            }
            payment.cancelledAmount += amount
            if payment.cancelledAmount == payment.amount {
                payment.status = .cancelled
                payment.cancelledAt = at
            }
            try PGStore.update(payment, on: connection)
            try PGStore.insertCancellation(
                PGCancellation(cancellationID: "", impUID: payment.impUID, amount: amount, reason: reason, cancelledAt: at),
                on: connection)
            return (payment, try PGStore.cancellations(impUID: payment.impUID, on: connection))
        }
        enqueueWebhook(for: payment, cause: .apiCancel)
        return PGWire.success(PGWire.json(payment, cancellations: cancellations))
    }

    // MARK: Listing parameters

    /// The query of a listing by merchant UID, with `sorting` from the query string.
    private func paymentQuery(_ request: TransportRequest, merchantUID: String, status: String?) throws -> PGPaymentQuery {
        var query = PGPaymentQuery(merchantUID: merchantUID)
        query.status = try status.flatMap(paymentStatus)
        query.sorting = try sorting(request)
        return query
    }

    /// `all` (nil) or one of v1's four statuses.
    func paymentStatus(_ text: String) throws -> PGPaymentRecord.Status? {
        if text == "all" { return nil }
        guard let status = PGPaymentRecord.Status(rawValue: text) else {
            throw PGFailure(status: 400, PGRefusal(code: -1, message: "지원되지 않는 상태값입니다."))
        }
        return status
    }

    func sorting(_ request: TransportRequest) throws -> PGSorting {
        guard let text = request.queryParameters["sorting"], !text.isEmpty else { return .newestStarted }
        guard let sorting = PGSorting(text) else {
            throw PGFailure(status: 400, PGRefusal(code: -1, message: "지원되지 않는 정렬기준입니다: \(text)"))
        }
        return sorting
    }

    /// An integer query parameter in `range`, or `value` when absent.
    func integer(_ request: TransportRequest, _ name: String, default value: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.queryParameters[name], !text.isEmpty else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw PGFailure(status: 400, PGRefusal(
                code: -1, message: "\(name)는 \(range.lowerBound) 이상 \(range.upperBound) 이하의 정수여야 합니다."))
        }
        return number
    }

    /// v1's page of the payments `query` finds: `{total, previous, next, list}`, where `previous`
    /// and `next` are page numbers, 0 when there is none.
    func pageAnswer(_ query: PGPaymentQuery, page: Int) throws -> (total: Int, json: [String: Any]) {
        let (total, payments) = try store.payments(query)
        let list = payments.map { PGWire.json($0.payment, cancellations: $0.cancellations) }
        return (total, [
            "total": total, "previous": page > 1 ? page - 1 : 0, "next": page * query.limit < total ? page + 1 : 0,
            "list": list,
        ] as [String: Any])
    }

    /// `imp_` and twelve random digits.
    static func newImpUID() -> String {
        let bytes = (try? SecureRandom.bytes(count: 12)) ?? Array(repeating: 0, count: 12)
        return "imp_" + bytes.map { String($0 % 10) }.joined()
    }
}
