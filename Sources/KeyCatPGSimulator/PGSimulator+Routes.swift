import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// Dispatches a request that got past the fault plan and the token check.
    func route(_ request: TransportRequest, endpoint: PGEndpoint) -> TransportResponse {
        do {
            switch endpoint {
            case .getToken: return try getToken(request)
            case .prepare: return try prepare(request)
            case .payment: return try readPayment(impUID: lastSegment(request))
            case .findPayment: return try findPayment(merchantUID: lastSegment(request))
            case .paymentsByStatus: return try listPayments(request, status: lastSegment(request))
            case .cancel: return try cancel(request)
            }
        } catch let failure as PGFailure {
            return PGWire.failure(failure.type, failure.message)
        } catch {
            return PGWire.failure(.internalServerError, "simulator storage failed")
        }
    }

    private func lastSegment(_ request: TransportRequest) -> String {
        let raw = request.pathWithoutQuery.split(separator: "/").last.map(String.init) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// Refuses a request without a valid, unexpired token.
    func authorize(_ request: TransportRequest) throws {
        guard var token = request.header("Authorization") else {
            throw PGFailure(.unauthorized, "missing access token")
        }
        if token.hasPrefix("Bearer ") { token.removeFirst(7) }
        guard try store.isTokenValid(token, at: now()) else {
            throw PGFailure(.unauthorized, "the access token is invalid or expired")
        }
    }

    /// `POST /users/getToken {imp_key, imp_secret}` → `{access_token, expired_at, now}`.
    private func getToken(_ request: TransportRequest) throws -> TransportResponse {
        let body = PGWire.object(request.body) ?? [:]
        guard PGWire.string(body["imp_key"]) == credentials.key,
              PGWire.string(body["imp_secret"]) == credentials.secret
        else { throw PGFailure(.unauthorized, "unknown imp_key or imp_secret") }
        let token = Base64URL.encode((try? SecureRandom.bytes(count: 24)) ?? [])
        let issuedAt = now()
        let expiresAt = issuedAt.addingTimeInterval(tokenLifetime.seconds)
        try store.insertToken(token, expiresAt: expiresAt)
        return PGWire.success([
            "access_token": token, "expired_at": Int64(expiresAt.timeIntervalSince1970),
            "now": Int64(issuedAt.timeIntervalSince1970),
        ])
    }

    /// `POST /payments/prepare {merchant_uid, amount}`: registers the amount the buyer must pay.
    /// Repeating it with the same amount is harmless; another amount is refused.
    private func prepare(_ request: TransportRequest) throws -> TransportResponse {
        let body = PGWire.object(request.body) ?? [:]
        guard let merchantUID = PGWire.string(body["merchant_uid"]), merchantUID.count <= 40 else {
            throw PGFailure(.invalidRequest, "merchant_uid is required (at most 40 characters)")
        }
        guard let amount = PGWire.int64(body["amount"]), amount > 0 else {
            throw PGFailure(.invalidRequest, "amount must be a positive integer")
        }
        let payment = try store.write { connection throws -> PGPaymentRecord in
            if let latest = try PGStore.latestPayment(merchantUID: merchantUID, on: connection) {
                switch latest.status {
                case .paid, .cancelled:
                    throw PGFailure(.alreadyPaid, "\(merchantUID) is already paid")
                case .ready where latest.amount == amount:
                    return latest
                case .ready:
                    throw PGFailure(.invalidRequest, "\(merchantUID) is already prepared with another amount")
                case .failed:
                    break  // a new attempt after a failed one
                }
            }
            let payment = PGPaymentRecord(
                impUID: Self.newImpUID(), merchantUID: merchantUID, amount: amount, cancelledAmount: 0,
                status: .ready, failureReason: nil, cardLast4: nil, paidAt: nil, cancelledAt: nil, startedAt: now())
            try PGStore.insert(payment, on: connection)
            return payment
        }
        return PGWire.success(["merchant_uid": payment.merchantUID, "amount": payment.amount, "imp_uid": payment.impUID])
    }

    private func readPayment(impUID: String) throws -> TransportResponse {
        guard let payment = try store.payment(impUID: impUID) else {
            throw PGFailure(.paymentNotFound, "no payment \(impUID)")
        }
        return PGWire.success(PGWire.json(payment, cancellations: try store.cancellations(impUID: impUID)))
    }

    private func findPayment(merchantUID: String) throws -> TransportResponse {
        guard let payment = try store.latestPayment(merchantUID: merchantUID) else {
            throw PGFailure(.paymentNotFound, "no payment for \(merchantUID)")
        }
        return PGWire.success(PGWire.json(payment, cancellations: try store.cancellations(impUID: payment.impUID)))
    }

    /// `POST /payments/cancel {imp_uid | merchant_uid, amount?, checksum?, reason}`: cancels the
    /// whole cancellable balance (no amount, or 0) or part of it. `checksum`, when sent, must equal
    /// the cancellable balance.
    private func cancel(_ request: TransportRequest) throws -> TransportResponse {
        guard let body = PGWire.object(request.body) else { throw PGFailure(.invalidRequest, "the body must be JSON") }
        let impUID = PGWire.string(body["imp_uid"])
        let merchantUID = PGWire.string(body["merchant_uid"])
        guard impUID != nil || merchantUID != nil else {
            throw PGFailure(.invalidRequest, "imp_uid or merchant_uid is required")
        }
        let requested = PGWire.int64(body["amount"]) ?? 0
        let checksum = PGWire.int64(body["checksum"])
        let reason = PGWire.string(body["reason"]) ?? "cancelled"
        guard requested >= 0 else { throw PGFailure(.invalidRequest, "amount must not be negative") }
        let at = now()
        let (payment, cancellations) = try store.write { connection throws -> (PGPaymentRecord, [PGCancellation]) in
            let found = try impUID.map { try PGStore.payment(impUID: $0, on: connection) }
                ?? PGStore.latestPayment(merchantUID: merchantUID ?? "", on: connection)
            guard var payment = found else { throw PGFailure(.paymentNotFound, "no such payment") }
            switch payment.status {
            case .ready, .failed: throw PGFailure(.paymentNotPaid, "\(payment.impUID) is not paid")
            case .cancelled: throw PGFailure(.paymentAlreadyCancelled, "\(payment.impUID) is already cancelled")
            case .paid: break
            }
            let cancellable = payment.cancellableAmount
            if let checksum, checksum != cancellable {
                throw PGFailure(.cancellableAmountConsistencyBroken,
                                "checksum \(checksum) differs from the cancellable amount \(cancellable)")
            }
            let amount = requested == 0 ? cancellable : requested
            guard amount <= cancellable else {
                throw PGFailure(.cancelAmountExceedsCancellableAmount,
                                "cannot cancel \(amount), only \(cancellable) is cancellable")
            }
            payment.cancelledAmount += amount
            if payment.cancelledAmount == payment.amount {
                payment.status = .cancelled
                payment.cancelledAt = at
            }
            try PGStore.update(payment, on: connection)
            try PGStore.insertCancellation(
                PGCancellation(impUID: payment.impUID, amount: amount, reason: reason, cancelledAt: at), on: connection)
            return (payment, try Self.cancellations(of: payment.impUID, on: connection))
        }
        enqueueWebhook(for: payment)
        return PGWire.success(PGWire.json(payment, cancellations: cancellations))
    }

    private static func cancellations(of impUID: String, on connection: SQLiteConnection) throws -> [PGCancellation] {
        try connection.query("SELECT amount, reason, cancelled_at FROM pg_cancels WHERE imp_uid = ? ORDER BY id",
                             [.text(impUID)]) {
            PGCancellation(impUID: impUID, amount: $0.int64(0), reason: $0.string(1),
                           cancelledAt: Date(timeIntervalSince1970: $0.double(2)))
        }
    }

    /// `imp_` and twelve random digits.
    static func newImpUID() -> String {
        let bytes = (try? SecureRandom.bytes(count: 12)) ?? Array(repeating: 0, count: 12)
        return "imp_" + bytes.map { String($0 % 10) }.joined()
    }
}
