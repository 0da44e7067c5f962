/// The HTTP-level errors the simulator answers with, and the status each carries: a request PortOne
/// v1 refuses before looking at the business (a malformed request, a token, a lookup that finds
/// nothing) or a failure of the PG itself, which faults inject. The body is v1's envelope:
/// `{"code": -1, "message": …, "response": null}`.
///
/// Business refusals (cancelling a cancelled payment, a checksum that does not match, …) are not
/// HTTP errors in v1: they answer 200 with a `code` other than 0 (see ``PGRefusal``).
public enum PGErrorType: String, Sendable, Hashable, CaseIterable {
    case invalidRequest = "INVALID_REQUEST"
    case unauthorized = "UNAUTHORIZED"
    case forbidden = "FORBIDDEN"
    case paymentNotFound = "PAYMENT_NOT_FOUND"
    case tooManyRequests = "TOO_MANY_REQUESTS"
    case internalServerError = "INTERNAL_SERVER_ERROR"
    case pgProvider = "PG_PROVIDER"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"

    /// The HTTP status this error is sent with.
    public var httpStatus: Int {
        switch self {
        case .invalidRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .paymentNotFound: 404
        case .tooManyRequests: 429
        case .internalServerError: 500
        case .pgProvider: 502
        case .serviceUnavailable: 503
        }
    }

    /// The message a fault of this type carries.
    var faultMessage: String {
        switch self {
        case .invalidRequest: "잘못된 요청입니다."
        case .unauthorized: "Unauthorized"
        case .forbidden: "Forbidden"
        case .paymentNotFound: PGRefusal.unknownPayment.message
        case .tooManyRequests: "Too Many Requests"
        case .internalServerError: "Internal Server Error"
        case .pgProvider: "PG사 응답 오류입니다."
        case .serviceUnavailable: "Service Unavailable"
        }
    }
}

/// A business refusal as PortOne v1 answers it: HTTP 200, `code` ≠ 0, a Korean message and
/// `response: null`. The messages are v1's own where its published clients' tests pin them
/// (unknown payment on cancel, a payment already cancelled in full, the lookup and prepare-lookup
/// misses); the others are worded the way v1 words its refusals, and each names its cause in a
/// word a client can match on (`checksum`, `초과`, `결제완료`, `사전등록`).
public struct PGRefusal: Sendable, Hashable {
    /// v1's `code`: 1 for a refusal of the request's business, -1 for a malformed request.
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// A lookup (`GET /payments/{imp_uid}`, `/payments/find/…`) that found nothing (sent as 404).
    public static let unknownPayment = PGRefusal(code: -1, message: "존재하지 않는 결제정보입니다.")
    /// `GET|PUT /payments/prepare` for a merchant UID nothing was prepared for (sent as 404).
    public static let unknownPrepared = PGRefusal(code: 1, message: "사전등록된 결제정보가 존재하지 않습니다.")
    /// A cancel of a payment the PG does not know.
    public static let nothingToCancel = PGRefusal(code: 1, message: "취소할 결제건이 존재하지 않습니다.")
    /// A cancel of a payment already cancelled in full.
    public static let alreadyCancelled = PGRefusal(code: 1, message: "이미 전액취소된 주문입니다.")
    /// A cancel of a payment that was never paid (ready or failed).
    public static let notPaid = PGRefusal(code: 1, message: "결제완료 상태가 아닌 결제건은 취소할 수 없습니다.")
    /// `POST /payments/prepare` for a merchant UID already prepared.
    public static let alreadyPrepared = PGRefusal(code: 1, message: "이미 사전등록된 merchant_uid 입니다.")

    /// Prepare (or a change of the prepared amount) for a merchant UID already paid.
    public static func alreadyPaid(_ merchantUID: String) -> PGRefusal {
        PGRefusal(code: 1, message: "이미 결제완료된 merchant_uid(\(merchantUID)) 입니다.")
    }

    /// A cancel whose `checksum` is not the cancellable balance.
    public static func checksumMismatch(checksum: Int64, cancellable: Int64) -> PGRefusal {
        PGRefusal(code: 1, message: "checksum(\(checksum)원)이 취소가능잔액(\(cancellable)원)과 일치하지 않습니다.")
    }

    /// A cancel of more than the cancellable balance.
    public static func exceedsCancellable(amount: Int64, cancellable: Int64) -> PGRefusal {
        PGRefusal(code: 1, message: "취소요청금액(\(amount)원)이 취소가능잔액(\(cancellable)원)을 초과합니다.")
    }

    /// A required parameter missing or malformed (sent as 400).
    public static func missingParameter(_ name: String) -> PGRefusal {
        PGRefusal(code: -1, message: "파라미터 누락: \(name)")
    }
}

/// A request the simulator refuses: the HTTP status it is sent with (200 for a business refusal)
/// and v1's `code` and message. The router turns it into the envelope.
struct PGFailure: Error {
    let status: Int
    let refusal: PGRefusal

    /// A business refusal: HTTP 200.
    init(_ refusal: PGRefusal) {
        status = 200
        self.refusal = refusal
    }

    /// An HTTP error with v1's `code` -1 and `message` (the type's own when nil).
    init(_ type: PGErrorType, _ message: String? = nil) {
        status = type.httpStatus
        refusal = PGRefusal(code: -1, message: message ?? type.faultMessage)
    }

    init(status: Int, _ refusal: PGRefusal) {
        self.status = status
        self.refusal = refusal
    }
}
