import Foundation
import KeyCatDomain

/// Which HTTP statuses a server answers errors with. The body's `code` is the same in both, so
/// clients branch on it whatever the profile.
public enum HTTPStatusProfile: String, Sendable, CaseIterable {
    /// Standard HTTP (the default; architecture §5): 404 for a missing thing, 401 with
    /// `WWW-Authenticate: Bearer error="invalid_token"` for an expired access token (RFC 6750
    /// §3.1), 400 `invalid_grant` for a refused refresh token (RFC 6749 §5.2), 403 for someone
    /// else's thing. Generic and generated clients, proxies and monitoring understand every one.
    case standard
    /// The KeyCat app's old contract, for servers whose app was built against it: 410 for a
    /// missing thing, 418 log in again, 419 refresh, 445 someone else's.
    case keyCatApp = "keycat-app"
}

extension KeyCatError {
    /// The HTTP status of this error in the standard profile (see ``httpStatus(in:)``).
    public var httpStatus: Int { httpStatus(in: .standard) }

    /// The HTTP status a server answers with for this error: architecture §5's Domain → HTTP
    /// table. The `switch` is exhaustive, so a new code cannot ship without a status.
    ///
    /// Someone else's object is 403 `not_owner` rather than a 404: KeyCat's ids are sequential
    /// row ids, so an object's existence is no secret worth a status that lies; what is private
    /// is its content, and no refusal carries any of it. Orders are the exception: that one
    /// exists tells that someone bought, so the use cases answer someone else's as `notFound`.
    public func httpStatus(in profile: HTTPStatusProfile) -> Int {
        switch code.kind {
        case .validation, .invalidCursor: return 400
        case .invalidCredentials, .invalidToken: return 401
        case .paymentDeclined: return 402
        case .forbidden: return 403
        case .duplicate, .illegalTransition, .versionConflict, .outOfStock, .reservationLimit, .limitReached, .alreadyShipped,
             .idempotencyKeyReused, .requestInProgress, .alreadyPaid, .paymentNotPaid, .paymentAlreadyCancelled,
             .cancellableAmountInconsistent, .cancelAmountExceedsCancellable:
            return 409
        case .notFound, .paymentNotFound: return profile == .keyCatApp ? 410 : 404
        case .refreshTokenExpired: return profile == .keyCatApp ? 418 : 400
        case .accessTokenExpired: return profile == .keyCatApp ? 419 : 401
        case .paymentAmountForged: return 422
        case .rateLimited: return 429
        case .notOwner: return profile == .keyCatApp ? 445 : 403
        case .storage, .internalError, .gatewayInvalidRequest: return 500
        case .gatewayUnavailable, .gatewayAuthenticationFailed, .gatewayForbidden, .invalidGatewayResponse: return 502
        case .gatewayTimeout: return 504
        }
    }

    /// The `WWW-Authenticate` challenge a 401 carries (RFC 6750 §3): a token that was presented
    /// and refused names `invalid_token` and why; a request with no token, or wrong log-in
    /// credentials, gets the bare scheme. Nil for every other error.
    public var wwwAuthenticate: String? {
        switch code.kind {
        case .accessTokenExpired:
            return #"Bearer error="invalid_token", error_description="the access token expired""#
        case .invalidToken where context["token"] == "missing":
            return "Bearer"
        case .invalidToken:
            return #"Bearer error="invalid_token", error_description="the access token is invalid""#
        case .invalidCredentials:
            return "Bearer"
        default:
            return nil
        }
    }

    /// The JSON body: `{"code": "...", "message": "..."}` plus the error's context fields.
    /// Keys are sorted so the body is byte-for-byte stable.
    ///
    /// A 5xx body reveals no internals: its message is a fixed sentence per code (a storage
    /// error's message names files and SQLite codes), and of the context only the fields a
    /// client acts on are kept (``publicServerErrorFields``: a refund's outcome and ids, the
    /// seconds to wait). Log the error itself on the server.
    public var httpBody: Data { httpBody(in: .standard) }

    /// The JSON body in `profile`. In the standard profile a refused refresh token's body also
    /// carries RFC 6749 §5.2's `error` (`invalid_grant`) and `error_description`, so an OAuth
    /// client library reads it as one of its own.
    public func httpBody(in profile: HTTPStatusProfile) -> Data {
        var object: [String: String]
        if httpStatus(in: profile) >= 500 {
            object = context.filter { Self.publicServerErrorFields.contains($0.key) }
            object["message"] = Self.serverErrorMessage(code)
        } else {
            object = context
            object["message"] = message
        }
        object["code"] = code.rawValue
        if profile == .standard, code == .refreshTokenExpired {
            object["error"] = "invalid_grant"
            object["error_description"] = message
        }
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
    public init(_ error: any Error, profile: HTTPStatusProfile = .standard) {
        if error is CancellationError {
            status = 499
            headers = ["Content-Type": "application/json"]
            body = Data(#"{"code":"cancelled","message":"the request was cancelled before it completed"}"#.utf8)
            return
        }
        let domainError = error as? KeyCatError
            ?? (error as? DecodingError).map(KeyCatError.init(decoding:))
            ?? KeyCatError(.internalError, "an internal error occurred")
        status = domainError.httpStatus(in: profile)
        body = domainError.httpBody(in: profile)
        headers = ["Content-Type": "application/json"]
        if let retryAfter = domainError.context["retry_after"] { headers["Retry-After"] = retryAfter }
        if status == 401, let challenge = domainError.wwwAuthenticate { headers["WWW-Authenticate"] = challenge }
        if profile == .standard, domainError.code == .refreshTokenExpired {
            // RFC 6749 §5.2: a token endpoint's refusal is not to be cached.
            headers["Cache-Control"] = "no-store"
        }
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
