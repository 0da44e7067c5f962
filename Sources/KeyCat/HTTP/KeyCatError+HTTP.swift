import Foundation
import KeyCatDomain

extension KeyCatError {
    /// The HTTP status a server answers with for this error: architecture §5's Domain → HTTP table,
    /// the KeyCat app's contract (410 for not found, 418/419 for token expiry, 445 for not the
    /// owner). The `switch` is exhaustive, so a new code cannot ship without a status.
    public var httpStatus: Int {
        switch code.kind {
        case .validation, .invalidCursor: 400
        case .invalidCredentials, .invalidToken: 401
        case .paymentDeclined: 402
        case .forbidden: 403
        case .duplicate, .illegalTransition, .versionConflict, .outOfStock, .idempotencyKeyReused,
             .requestInProgress, .alreadyPaid, .paymentNotPaid, .paymentAlreadyCancelled,
             .cancellableAmountInconsistent, .cancelAmountExceedsCancellable:
            409
        case .notFound, .paymentNotFound: 410
        case .refreshTokenExpired: 418
        case .accessTokenExpired: 419
        case .paymentAmountForged: 422
        case .rateLimited: 429
        case .notOwner: 445
        case .storage, .internalError, .gatewayInvalidRequest: 500
        case .gatewayUnavailable, .gatewayAuthenticationFailed, .gatewayForbidden, .invalidGatewayResponse: 502
        case .gatewayTimeout: 504
        }
    }

    /// The JSON body: `{"code": "...", "message": "..."}` plus the error's context fields.
    /// Keys are sorted so the body is byte-for-byte stable.
    public var httpBody: Data {
        var object: [String: String] = context
        object["code"] = code.rawValue
        object["message"] = message
        // Encoding a [String: String] cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}

/// An error turned into an HTTP answer, ready for any server framework.
public struct HTTPErrorResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Extra headers, e.g. `Retry-After` for 429.
    public var headers: [String: String]
    /// The JSON body.
    public var body: Data

    /// Maps any error a KeyCat call threw. Errors that are not ``KeyCatError`` are bugs: they
    /// become a 500 `internal` whose body says nothing of the cause (log `error` yourself).
    public init(_ error: any Error) {
        let domainError = error as? KeyCatError
            ?? KeyCatError(.internalError, "an internal error occurred")
        status = domainError.httpStatus
        body = domainError.httpBody
        headers = ["Content-Type": "application/json"]
        if let retryAfter = domainError.context["retry_after"] { headers["Retry-After"] = retryAfter }
    }
}
