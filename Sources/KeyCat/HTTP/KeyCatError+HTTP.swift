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
    ///
    /// A 5xx body reveals no internals: its message is a fixed sentence per code (a storage
    /// error's message names files and SQLite codes), and of the context only the fields a
    /// client acts on are kept (``publicServerErrorFields``: a refund's outcome and ids, the
    /// seconds to wait). Log the error itself on the server.
    public var httpBody: Data {
        var object: [String: String]
        if httpStatus >= 500 {
            object = context.filter { Self.publicServerErrorFields.contains($0.key) }
            object["message"] = Self.serverErrorMessage(code)
        } else {
            object = context
            object["message"] = message
        }
        object["code"] = code.rawValue
        // Encoding a [String: String] cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// The context fields a 5xx body keeps: what a client needs to act (a refund left pending
    /// for reconciliation names its order, refund and amount, and whether the PG answered).
    public static let publicServerErrorFields: Set<String> = ["outcome", "order_id", "refund_id", "amount", "retry_after"]

    /// The sentence a 5xx body carries for `code`.
    static func serverErrorMessage(_ code: Code) -> String {
        switch code.kind {
        case .storage: "the database could not complete the request; try again later"
        case .gatewayTimeout: "the payment gateway did not answer in time; the outcome is settled by reconciliation"
        case .gatewayUnavailable, .gatewayAuthenticationFailed, .gatewayForbidden, .invalidGatewayResponse,
             .gatewayInvalidRequest:
            "the payment gateway could not complete the request; try again later"
        default: "an internal error occurred"
        }
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

    /// Maps any error a KeyCat call threw. A `DecodingError` (a server decoding its own request
    /// bodies) is a 400 `validation` naming the field; a `CancellationError` (the client went
    /// away or the server is shutting down) is 499 `cancelled`. Any other error that is not a
    /// ``KeyCatError`` is a bug: a 500 `internal` whose body says nothing of the cause (log
    /// `error` yourself).
    public init(_ error: any Error) {
        if error is CancellationError {
            status = 499
            headers = ["Content-Type": "application/json"]
            body = Data(#"{"code":"cancelled","message":"the request was cancelled before it completed"}"#.utf8)
            return
        }
        let domainError = error as? KeyCatError
            ?? (error as? DecodingError).map(KeyCatError.init(decoding:))
            ?? KeyCatError(.internalError, "an internal error occurred")
        status = domainError.httpStatus
        body = domainError.httpBody
        headers = ["Content-Type": "application/json"]
        if let retryAfter = domainError.context["retry_after"] { headers["Retry-After"] = retryAfter }
    }
}

extension KeyCatError {
    /// A 400 `validation` for a request body that could not be decoded, naming the field by its
    /// JSON path (`lines.0.quantity`), or `body` when the JSON itself is malformed.
    public init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "body" : text
        }
        switch error {
        case let .keyNotFound(key, context):
            let field = path(context.codingPath, key)
            self = .validation(field, "\(field) is required")
        case let .valueNotFound(_, context):
            let field = path(context.codingPath)
            self = .validation(field, "\(field) cannot be null")
        case let .typeMismatch(_, context):
            let field = path(context.codingPath)
            self = .validation(field, "\(field) has the wrong type")
        case let .dataCorrupted(context):
            let field = path(context.codingPath)
            self = field == "body"
                ? .validation("body", "the body is not valid JSON")
                : .validation(field, "\(field) has an invalid value")
        @unknown default:
            self = .validation("body", "the body could not be read")
        }
    }
}
