import Foundation
import KeyCatInfrastructure

/// The simulator's wire, PortOne v1's: `{code, message, response}` envelopes, request parameters
/// as JSON or as a form, and v1's payment object.
enum PGWire {
    static func success(_ response: Any) -> TransportResponse {
        encode(status: 200, ["code": 0, "message": NSNull(), "response": response])
    }

    static func failure(_ failure: PGFailure) -> TransportResponse {
        encode(status: failure.status, ["code": failure.refusal.code, "message": failure.refusal.message, "response": NSNull()])
    }

    static func failure(_ type: PGErrorType, _ message: String? = nil) -> TransportResponse {
        failure(PGFailure(type, message))
    }

    static func encode(status: Int, _ object: [String: Any]) -> TransportResponse {
        let body = (try? JSONObjectEncoding.data(object)) ?? Data()
        return TransportResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    // MARK: Requests

    /// The request's parameters: a JSON object, or an `application/x-www-form-urlencoded` form
    /// (what `iamporter` and `curl -d` send). v1 takes both on every endpoint; a body that is
    /// neither reads as no parameters, so the endpoint names the one it misses.
    static func parameters(_ request: TransportRequest) -> [String: Any] {
        guard !request.body.isEmpty else { return [:] }
        let contentType = request.header("Content-Type")?.lowercased() ?? ""
        if !contentType.contains("x-www-form-urlencoded"),
           let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] {
            return object
        }
        guard let text = String(data: request.body, encoding: .utf8) else { return [:] }
        return FormEncoding.dictionary(text)
    }

    /// A whole number of won: a JSON number, or text such as `"1000"` or `"1000.0"` (a form, or a
    /// client that sends v1's `double` amounts). Nil for anything else, fractions included.
    static func int64(_ value: Any?) -> Int64? {
        func whole(_ number: Double) -> Int64? { number.rounded() == number ? Int64(exactly: number) : nil }
        // JSON's true and false come as numbers too (their type code is `c`): not amounts.
        if let number = value as? NSNumber, String(cString: number.objCType) == "c" { return nil }
        switch value {
        case let value as Int: return Int64(value)
        case let value as Int64: return value
        case let value as Double: return whole(value)
        case let value as String:
            let text = value.trimmingCharacters(in: .whitespaces)
            return Int64(text) ?? Double(text).flatMap(whole)
        default: return nil
        }
    }

    static func string(_ value: Any?) -> String? {
        guard let string = value as? String, !string.isEmpty else { return nil }
        return string
    }

    // MARK: Payments

    /// A payment as v1's `Payment` model, with every field the v1 schema requires: times in unix
    /// seconds (0 when the event has not happened), amounts as numbers, `cancel_history` with each
    /// cancellation's `pg_tid` and `cancellation_id`.
    static func json(_ payment: PGPaymentRecord, cancellations: [PGCancellation]) -> [String: Any] {
        let paid = payment.paidAt != nil
        return [
            "imp_uid": payment.impUID,
            "merchant_uid": payment.merchantUID,
            "pay_method": "card",
            "channel": "pc",
            "pg_provider": "keycat_sandbox",
            "emb_pg_provider": NSNull(),
            "pg_tid": paid ? pgTID(payment.impUID) : NSNull(),
            "pg_id": "keycat_sandbox",
            "escrow": false,
            "apply_num": paid ? String(payment.impUID.suffix(8)) : NSNull(),
            "bank_code": NSNull(),
            "bank_name": NSNull(),
            "card_code": payment.cardLast4 == nil ? NSNull() : "361",
            "card_name": payment.cardLast4 == nil ? NSNull() : "KeyCat 테스트카드",
            "card_quota": 0,
            "card_number": payment.cardLast4.map { "************" + $0 } ?? NSNull(),
            "card_type": payment.cardLast4 == nil ? NSNull() : 0,
            "vbank_code": NSNull(),
            "vbank_name": NSNull(),
            "vbank_num": NSNull(),
            "vbank_holder": NSNull(),
            "vbank_date": 0,
            "vbank_issued_at": 0,
            "name": NSNull(),
            "amount": payment.amount,
            "cancel_amount": payment.cancelledAmount,
            "currency": "KRW",
            "buyer_name": NSNull(),
            "buyer_email": NSNull(),
            "buyer_tel": NSNull(),
            "buyer_addr": NSNull(),
            "buyer_postcode": NSNull(),
            "custom_data": NSNull(),
            "user_agent": "sorry_not_supported",
            "status": payment.status.rawValue,
            "started_at": seconds(payment.startedAt),
            "paid_at": seconds(payment.paidAt),
            "failed_at": seconds(payment.failedAt),
            "cancelled_at": seconds(payment.cancelledAt),
            "fail_reason": payment.failureReason ?? NSNull(),
            "cancel_reason": cancellations.last?.reason ?? NSNull(),
            "receipt_url": receiptURL(payment.impUID),
            "cancel_history": cancellations.map(json),
            "cancel_receipt_urls": cancellations.map { receiptURL($0.cancellationID) },
            "cash_receipt_issued": false,
            "customer_uid": NSNull(),
            "customer_uid_usage": NSNull(),
            "sandbox": true,
        ]
    }

    /// One entry of v1's `cancel_history`.
    static func json(_ cancellation: PGCancellation) -> [String: Any] {
        [
            "pg_tid": pgTID(cancellation.cancellationID),
            "amount": cancellation.amount,
            "cancelled_at": seconds(cancellation.cancelledAt),
            "reason": cancellation.reason,
            "cancellation_id": cancellation.cancellationID,
            "receipt_url": receiptURL(cancellation.cancellationID),
        ]
    }

    /// The card company's transaction id, derived from the simulator's own id so it is stable.
    private static func pgTID(_ id: String) -> String {
        "KCSB" + id.filter(\.isNumber)
    }

    private static func receiptURL(_ id: String) -> String {
        "https://sandbox.keycat.invalid/receipts/\(id)"
    }

    private static func seconds(_ date: Date?) -> Int64 {
        date.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0
    }
}
