import Foundation
import KeyCatDomain

/// The PG's `{code, message, response}` envelope (PortOne v1).
struct PGEnvelope<Response: Decodable>: Decodable {
    let code: Int
    let message: String?
    let response: Response?
}

/// Just the message, read leniently from any error answer.
struct PGErrorBody: Decodable {
    let message: String?
}

struct PGTokenPayload: Decodable {
    let accessToken: String
    let expiredAt: Int64

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiredAt = "expired_at"
    }
}

struct PGPreparePayload: Decodable {
    let merchantUID: String
    let amount: Int64

    enum CodingKeys: String, CodingKey {
        case merchantUID = "merchant_uid"
        case amount
    }
}

struct PGPaymentPayload: Decodable {
    let impUID: String
    let merchantUID: String
    let amount: Int64
    let cancelAmount: Int64
    let status: String
    let failReason: String?
    let paidAt: Int64?
    /// v1 names it on every payment; one without it is taken as in no currency, so it pays for
    /// nothing.
    let currency: String?
    /// v1's test-mode flag.
    let sandbox: Bool?

    enum CodingKeys: String, CodingKey {
        case currency, sandbox
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
        case amount
        case cancelAmount = "cancel_amount"
        case status
        case failReason = "fail_reason"
        case paidAt = "paid_at"
    }

    /// The payment in domain types, or nil for a status the domain does not know.
    var domain: GatewayPayment? {
        guard let status = GatewayPayment.Status(rawValue: status) else { return nil }
        return GatewayPayment(
            impUID: impUID, merchantUID: merchantUID, status: status, amount: Money(won: amount),
            cancelledAmount: Money(won: cancelAmount), failureReason: failReason,
            paidAt: paidAt.flatMap { $0 > 0 ? Date(timeIntervalSince1970: TimeInterval($0)) : nil },
            currency: currency ?? "", isTestPayment: sandbox ?? false)
    }
}

/// A page of `GET /payments/status/{payment_status}`: `{total, previous, next, list}`, where
/// `previous` and `next` are page numbers and 0 means none (PortOne v1).
struct PGPaymentListPayload: Decodable {
    let total: Int
    let previous: Int?
    let next: Int?
    let list: [PGPaymentPayload]
}
