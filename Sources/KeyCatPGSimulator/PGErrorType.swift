/// The error types the simulator answers with (PortOne v2's names) and the HTTP status each
/// carries (architecture §5). The body is always a `{code, message, type, response}` envelope with
/// `code` -1 and `response` null.
public enum PGErrorType: String, Sendable, Hashable, CaseIterable {
    case invalidRequest = "INVALID_REQUEST"
    case unauthorized = "UNAUTHORIZED"
    case forbidden = "FORBIDDEN"
    case paymentNotFound = "PAYMENT_NOT_FOUND"
    case alreadyPaid = "ALREADY_PAID"
    case paymentNotPaid = "PAYMENT_NOT_PAID"
    case paymentAlreadyCancelled = "PAYMENT_ALREADY_CANCELLED"
    case cancellableAmountConsistencyBroken = "CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN"
    case cancelAmountExceedsCancellableAmount = "CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT"
    case tooManyRequests = "TOO_MANY_REQUESTS"
    case internalServerError = "INTERNAL_SERVER_ERROR"
    case pgProvider = "PG_PROVIDER"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"

    /// The HTTP status this type is sent with.
    public var httpStatus: Int {
        switch self {
        case .invalidRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .paymentNotFound: 404
        case .alreadyPaid, .paymentNotPaid, .paymentAlreadyCancelled, .cancellableAmountConsistencyBroken,
             .cancelAmountExceedsCancellableAmount:
            409
        case .tooManyRequests: 429
        case .internalServerError: 500
        case .pgProvider: 502
        case .serviceUnavailable: 503
        }
    }
}

/// A request the simulator refuses, turned into an error envelope by the router.
struct PGFailure: Error {
    let type: PGErrorType
    let message: String

    init(_ type: PGErrorType, _ message: String) {
        self.type = type
        self.message = message
    }
}
