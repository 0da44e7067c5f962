import Foundation
import KeyCatInfrastructure

/// The simulator's JSON: `{code, message, response}` envelopes (PortOne v1), with the v2 error
/// `type` added to failures.
enum PGWire {
    static func success(_ response: Any) -> TransportResponse {
        encode(status: 200, ["code": 0, "message": NSNull(), "response": response])
    }

    static func failure(_ type: PGErrorType, _ message: String) -> TransportResponse {
        encode(status: type.httpStatus, ["code": -1, "message": message, "type": type.rawValue, "response": NSNull()])
    }

    static func encode(status: Int, _ object: [String: Any]) -> TransportResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return TransportResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    static func json(_ payment: PGPaymentRecord, cancellations: [PGCancellation]) -> [String: Any] {
        [
            "imp_uid": payment.impUID,
            "merchant_uid": payment.merchantUID,
            "amount": payment.amount,
            "cancel_amount": payment.cancelledAmount,
            "status": payment.status.rawValue,
            "pay_method": "card",
            "fail_reason": payment.failureReason ?? NSNull(),
            "card_number": payment.cardLast4.map { "************" + $0 } ?? NSNull(),
            "paid_at": payment.paidAt.map { Int64($0.timeIntervalSince1970) } ?? 0,
            "cancelled_at": payment.cancelledAt.map { Int64($0.timeIntervalSince1970) } ?? 0,
            "cancel_history": cancellations.map {
                ["amount": $0.amount, "reason": $0.reason, "cancelled_at": Int64($0.cancelledAt.timeIntervalSince1970)]
                    as [String: Any]
            },
        ]
    }

    /// The request's JSON object, or nil when the body is not one.
    static func object(_ body: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    static func int64(_ value: Any?) -> Int64? {
        switch value {
        case let value as Int: Int64(value)
        case let value as Int64: value
        case let value as Double where value.rounded() == value: Int64(exactly: value)
        case let value as NSNumber: value.int64Value
        case let value as String: Int64(value)
        default: nil
        }
    }

    static func string(_ value: Any?) -> String? {
        guard let string = value as? String, !string.isEmpty else { return nil }
        return string
    }
}
