import KeyCatDomain
import KeyCatInfrastructure

/// architecture §5's PG HTTP → domain table, in one place: which domain error each PG answer becomes
/// and whether the client may retry it.
package enum PGErrorMapper {
    /// What the client may do after an answer.
    package enum Retry: Sendable, Hashable {
        /// Give up with the error.
        case never
        /// Fetch a new token and retry once; a second refusal is final.
        case refreshTokenOnce
        /// Wait the `Retry-After` seconds, then retry (the PG did not act).
        case afterRetryAfter
        /// Retry with exponential backoff and jitter if the request is safe to repeat (a GET, or
        /// a POST with an idempotency key).
        case backoffWhenSafe
    }

    /// One row of the table. `type` nil matches any error type sent with that status.
    package struct Rule: Sendable, Hashable {
        package let status: Int
        package let type: String?
        package let code: KeyCatError.Code
        package let retry: Retry
    }

    /// The table. Rows with a type win over the status-only row of the same status.
    package static let table: [Rule] = [
        Rule(status: 400, type: "INVALID_REQUEST", code: .gatewayInvalidRequest, retry: .never),
        Rule(status: 401, type: nil, code: .gatewayAuthenticationFailed, retry: .refreshTokenOnce),
        Rule(status: 403, type: nil, code: .gatewayForbidden, retry: .never),
        Rule(status: 404, type: "PAYMENT_NOT_FOUND", code: .paymentNotFound, retry: .never),
        Rule(status: 409, type: "ALREADY_PAID", code: .alreadyPaid, retry: .never),
        Rule(status: 409, type: "PAYMENT_NOT_PAID", code: .paymentNotPaid, retry: .never),
        Rule(status: 409, type: "PAYMENT_ALREADY_CANCELLED", code: .paymentAlreadyCancelled, retry: .never),
        Rule(status: 409, type: "CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", code: .cancellableAmountInconsistent, retry: .never),
        Rule(status: 409, type: "CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", code: .cancelAmountExceedsCancellable, retry: .never),
        Rule(status: 429, type: nil, code: .rateLimited, retry: .afterRetryAfter),
        Rule(status: 500, type: nil, code: .gatewayUnavailable, retry: .backoffWhenSafe),
        Rule(status: 502, type: nil, code: .gatewayUnavailable, retry: .backoffWhenSafe),
        Rule(status: 503, type: nil, code: .gatewayUnavailable, retry: .backoffWhenSafe),
    ]

    /// No answer in time: the PG may have acted. Retried only when safe to repeat.
    package static let timeout = Rule(status: 0, type: nil, code: .gatewayTimeout, retry: .backoffWhenSafe)
    /// No connection: the PG never saw the request, so even an unkeyed POST may be retried.
    package static let connectionFailed = Rule(status: 0, type: nil, code: .gatewayUnavailable, retry: .backoffWhenSafe)
    /// Our own task was cancelled while waiting: the PG may have acted, and nothing is retried.
    package static let cancelled = Rule(status: 0, type: nil, code: .gatewayTimeout, retry: .never)
    /// A body that is not the envelope (or a 2xx envelope with an error code).
    package static let malformed = Rule(status: 0, type: nil, code: .invalidGatewayResponse, retry: .never)

    /// The rule for an HTTP error answer: an exact (status, type) row, else the status's row,
    /// else any other 4xx is our bad request and any other 5xx an unavailable gateway.
    package static func rule(status: Int, type: String?) -> Rule {
        if let type, let exact = table.first(where: { $0.status == status && $0.type == type }) { return exact }
        if let byStatus = table.first(where: { $0.status == status && $0.type == nil }) { return byStatus }
        if status >= 500 { return Rule(status: status, type: nil, code: .gatewayUnavailable, retry: .backoffWhenSafe) }
        if status == 404 { return Rule(status: 404, type: nil, code: .paymentNotFound, retry: .never) }
        return Rule(status: status, type: nil, code: .gatewayInvalidRequest, retry: .never)
    }

    /// The domain error for `rule`, with the PG's status and type in the context (`pg_status`,
    /// `pg_type`), `retry_after` for a 429 and `outcome: unknown` for a timeout.
    package static func error(
        for rule: Rule, status: Int?, type: String?, message: String?, retryAfterSeconds: Int? = nil
    ) -> KeyCatError {
        var context: [String: String] = [:]
        if let status { context["pg_status"] = String(status) }
        if let type { context["pg_type"] = type }
        if let retryAfterSeconds { context["retry_after"] = String(retryAfterSeconds) }
        if rule.code == .gatewayTimeout { context["outcome"] = "unknown" }
        let text = message.map(Redactor.text) ?? ""
        let summary: String = switch rule.code.kind {
        case .gatewayTimeout: "the payment gateway did not answer in time; the outcome is unknown until reconciliation"
        case .gatewayUnavailable: "the payment gateway is unavailable"
        case .gatewayAuthenticationFailed: "the payment gateway refused our credentials"
        case .rateLimited: "the payment gateway is rate limiting us"
        case .invalidGatewayResponse: "the payment gateway's answer could not be understood"
        default: text.isEmpty ? "the payment gateway refused the request" : "the payment gateway refused: \(text)"
        }
        return KeyCatError(rule.code, summary, context: context)
    }
}
