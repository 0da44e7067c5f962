/// The one error every KeyCat use case throws.
///
/// It carries a stable machine ``code`` (what a client switches on and what the HTTP body's
/// `"code"` holds), a human ``message``, and ``context``: the fields that say more (the field that
/// failed validation, the product that ran out, the seconds to wait…).
///
/// `KeyCatError` is a struct around a code rather than a public enum, so new codes can be added
/// without breaking anyone's exhaustive `switch`. Compare codes: `error.code == .outOfStock`.
public struct KeyCatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable machine code.
    public let code: Code
    /// A sentence for people, safe to show a client.
    public let message: String
    /// Extra fields, e.g. `["field": "nick"]`, added to the error's JSON body.
    public let context: [String: String]

    public init(_ code: Code, _ message: String, context: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        let fields = context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return fields.isEmpty ? "\(code): \(message)" : "\(code): \(message) [\(fields.joined(separator: ", "))]"
    }
}

extension KeyCatError {
    /// A stable machine code. The raw value (snake_case) is part of the HTTP contract.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The kinds known to this version. `package` so the HTTP table can switch over it
        /// exhaustively while users see only the extensible ``Code``.
        package enum Kind: String, Sendable, CaseIterable {
            case validation
            case invalidCursor = "invalid_cursor"
            case invalidCredentials = "invalid_credentials"
            case invalidToken = "invalid_token"
            case accessTokenExpired = "access_token_expired"
            case refreshTokenExpired = "refresh_token_expired"
            case forbidden
            case notOwner = "not_owner"
            case notFound = "not_found"
            case duplicate
            case illegalTransition = "illegal_transition"
            case versionConflict = "version_conflict"
            case outOfStock = "out_of_stock"
            case reservationLimit = "reservation_limit"
            case limitReached = "limit_reached"
            case alreadyShipped = "already_shipped"
            case idempotencyKeyReused = "idempotency_key_reused"
            case requestInProgress = "request_in_progress"
            case rateLimited = "rate_limited"
            case paymentDeclined = "payment_declined"
            case paymentAmountForged = "payment_amount_forged"
            case paymentNotFound = "payment_not_found"
            case alreadyPaid = "already_paid"
            case paymentNotPaid = "payment_not_paid"
            case paymentAlreadyCancelled = "payment_already_cancelled"
            case cancellableAmountInconsistent = "cancellable_amount_inconsistent"
            case cancelAmountExceedsCancellable = "cancel_amount_exceeds_cancellable"
            case gatewayInvalidRequest = "gateway_invalid_request"
            case gatewayAuthenticationFailed = "gateway_authentication_failed"
            case gatewayForbidden = "gateway_forbidden"
            case gatewayUnavailable = "gateway_unavailable"
            case gatewayTimeout = "gateway_timeout"
            case invalidGatewayResponse = "invalid_gateway_response"
            case storage
            case internalError = "internal"
        }

        package let kind: Kind

        package init(_ kind: Kind) { self.kind = kind }

        /// The code as it appears in JSON bodies and logs, e.g. `"out_of_stock"`.
        public var rawValue: String { kind.rawValue }
        public var description: String { kind.rawValue }

        /// Every code this version knows.
        public static var allCases: [Code] { Kind.allCases.map(Code.init) }

        /// Looks a code up by its raw value.
        public init?(rawValue: String) {
            guard let kind = Kind(rawValue: rawValue) else { return nil }
            self.kind = kind
        }

        /// Input broke a rule; `context["field"]` names the field.
        public static let validation = Code(.validation)
        /// A pagination cursor was tampered with, or reused with other filters or sort.
        public static let invalidCursor = Code(.invalidCursor)
        /// Wrong email or password.
        public static let invalidCredentials = Code(.invalidCredentials)
        /// An access token that is malformed, badly signed or of another algorithm.
        public static let invalidToken = Code(.invalidToken)
        /// An access token past its expiry: refresh it.
        public static let accessTokenExpired = Code(.accessTokenExpired)
        /// A refresh token that expired, was revoked, or was already used (reuse detection).
        public static let refreshTokenExpired = Code(.refreshTokenExpired)
        /// The caller's role may not do this.
        public static let forbidden = Code(.forbidden)
        /// The caller does not own what it tries to change.
        public static let notOwner = Code(.notOwner)
        /// The thing does not exist (or no longer does).
        public static let notFound = Code(.notFound)
        /// It already exists (an email, a review, a merchant UID…).
        public static let duplicate = Code(.duplicate)
        /// The order's state machine forbids the move.
        public static let illegalTransition = Code(.illegalTransition)
        /// An update carried a stale version.
        public static let versionConflict = Code(.versionConflict)
        /// Not enough stock; `context` names the product and what is left.
        public static let outOfStock = Code(.outOfStock)
        /// A buyer holds as many unpaid orders, or units of a product in them, as they may.
        public static let reservationLimit = Code(.reservationLimit)
        /// Something an account keeps is full (its address book); `context` has `limit`.
        public static let limitReached = Code(.limitReached)
        /// A parcel of the order has left its seller: the buyer cannot cancel it (only what is
        /// still pending), and asks for a return instead. `context` names the `shipment_id`.
        public static let alreadyShipped = Code(.alreadyShipped)
        /// An idempotency key came back with other input.
        public static let idempotencyKeyReused = Code(.idempotencyKeyReused)
        /// The first request with this idempotency key is still running: retry later.
        public static let requestInProgress = Code(.requestInProgress)
        /// Too many requests; `context["retry_after"]` holds the seconds to wait.
        public static let rateLimited = Code(.rateLimited)
        /// The card was declined.
        public static let paymentDeclined = Code(.paymentDeclined)
        /// The paid amount differs from the order's: the payment was cancelled.
        public static let paymentAmountForged = Code(.paymentAmountForged)
        /// The payment gateway knows no such payment.
        public static let paymentNotFound = Code(.paymentNotFound)
        /// The gateway says the payment is already paid.
        public static let alreadyPaid = Code(.alreadyPaid)
        /// The gateway says the payment is not paid, so it cannot be cancelled.
        public static let paymentNotPaid = Code(.paymentNotPaid)
        /// The gateway says the payment is already fully cancelled.
        public static let paymentAlreadyCancelled = Code(.paymentAlreadyCancelled)
        /// The cancellable balance we sent (the checksum) differs from the gateway's.
        public static let cancellableAmountInconsistent = Code(.cancellableAmountInconsistent)
        /// The refund asked for is larger than what can still be cancelled.
        public static let cancelAmountExceedsCancellable = Code(.cancelAmountExceedsCancellable)
        /// The gateway rejected our request as malformed: a bug on our side.
        public static let gatewayInvalidRequest = Code(.gatewayInvalidRequest)
        /// The gateway refused our credentials even after a fresh token.
        public static let gatewayAuthenticationFailed = Code(.gatewayAuthenticationFailed)
        /// The gateway forbids this operation for our account.
        public static let gatewayForbidden = Code(.gatewayForbidden)
        /// The gateway answered 5xx (after retries).
        public static let gatewayUnavailable = Code(.gatewayUnavailable)
        /// The gateway did not answer in time: the outcome is unknown until reconciliation.
        public static let gatewayTimeout = Code(.gatewayTimeout)
        /// The gateway's answer could not be understood.
        public static let invalidGatewayResponse = Code(.invalidGatewayResponse)
        /// The database failed (I/O, locked too long, corrupt, from a newer KeyCat).
        public static let storage = Code(.storage)
        /// A bug: something that should not happen did.
        public static let internalError = Code(.internalError)
    }
}

extension KeyCatError {
    /// A validation failure naming the field that broke the rule.
    public static func validation(_ field: String, _ message: String) -> KeyCatError {
        KeyCatError(.validation, message, context: ["field": field])
    }

    /// A missing thing, named by kind and id.
    public static func notFound(_ entity: String, _ id: CustomStringConvertible) -> KeyCatError {
        KeyCatError(.notFound, "\(entity) \(id) was not found", context: ["entity": entity, "id": "\(id)"])
    }
}
