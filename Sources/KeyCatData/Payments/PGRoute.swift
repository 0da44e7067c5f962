import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The PG's endpoints (PortOne v1 paths), each knowing its method, path, body and whether it is
/// safe to send twice. Bodies are JSON, which v1 takes on every endpoint.
package enum PGRoute: Sendable, Hashable {
    /// `POST /users/getToken`: never goes through the interceptor (it is how the token is made).
    case getToken(key: String, secret: String)
    /// `POST /payments/prepare`
    case prepare(merchantUID: String, amount: Money)
    /// `GET /payments/prepare/{merchant_uid}`: the amount registered.
    case prepared(merchantUID: String)
    /// `GET /payments/{imp_uid}`
    case payment(impUID: String)
    /// `GET /payments/find/{merchant_uid}`
    case findPayment(merchantUID: String)
    /// `POST /payments/cancel`
    case cancel(GatewayCancellation)
    /// `GET /payments/status/{payment_status}?from=&to=&page=&limit=` (unix seconds)
    case paymentsByStatus(GatewayPaymentQuery)

    package var method: TransportMethod {
        switch self {
        case .payment, .findPayment, .paymentsByStatus, .prepared: .get
        case .getToken, .prepare, .cancel: .post
        }
    }

    package var path: String {
        switch self {
        case .getToken: "/users/getToken"
        case .prepare: "/payments/prepare"
        case let .prepared(merchantUID): "/payments/prepare/" + Self.escape(merchantUID)
        case let .payment(impUID): "/payments/" + Self.escape(impUID)
        case let .findPayment(merchantUID): "/payments/find/" + Self.escape(merchantUID)
        case .cancel: "/payments/cancel"
        case let .paymentsByStatus(query):
            "/payments/status/\(query.status?.rawValue ?? "all")?from=\(Int64(query.from.timeIntervalSince1970.rounded(.down)))"
                + "&to=\(Int64(query.to.timeIntervalSince1970.rounded(.up)))&page=\(query.page)&limit=\(query.limit)"
        }
    }

    /// Whether a 5xx or a timeout may be retried. v1 deduplicates nothing, so a write is safe to
    /// repeat only when a second application is refused: a prepare (v1 refuses a second one for
    /// the merchant UID, and ``PGGatewayClient`` reads the registration back) and a cancel, whose
    /// `checksum` no longer matches once the first landed (the client then re-reads the payment).
    /// Reads always are.
    package var isSafeToRepeat: Bool {
        switch self {
        case .getToken: false
        case .prepare, .cancel, .prepared, .payment, .findPayment, .paymentsByStatus: true
        }
    }

    package var body: Data {
        let object: [String: Any]
        switch self {
        case let .getToken(key, secret):
            object = ["imp_key": key, "imp_secret": secret]
        case let .prepare(merchantUID, amount):
            object = ["merchant_uid": merchantUID, "amount": amount.won]
        case let .cancel(cancellation):
            var fields: [String: Any] = ["checksum": cancellation.checksum.won, "reason": cancellation.reason]
            switch cancellation.target {
            case let .impUID(impUID): fields["imp_uid"] = impUID
            case let .merchantUID(merchantUID): fields["merchant_uid"] = merchantUID
            }
            if let amount = cancellation.amount { fields["amount"] = amount.won }
            object = fields
        case .payment, .findPayment, .paymentsByStatus, .prepared:
            return Data()
        }
        // Strings and integers always serialise.
        return (try? JSONObjectEncoding.data(object)) ?? Data()
    }

    /// The request, without the token (the interceptor adds it).
    package var request: TransportRequest {
        var headers = ["Accept": "application/json"]
        if method == .post { headers["Content-Type"] = "application/json" }
        return TransportRequest(method: method, path: path, headers: headers, body: body)
    }

    private static func escape(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
