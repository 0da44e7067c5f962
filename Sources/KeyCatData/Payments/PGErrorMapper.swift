import KeyCatDomain
import KeyCatInfrastructure

/// architecture §5's PG → domain table, in one place: which domain error each PortOne v1 answer
/// becomes and whether the client may retry it.
///
/// v1 answers in two ways. A request it refuses before the business (a token, a malformed
/// request, a lookup that finds nothing) or a failure of its own is an HTTP error status
/// (``table``). A business refusal (cancelling a cancelled payment, a checksum that no longer
/// matches, …) is HTTP 200 with `code` ≠ 0, a Korean message and `response: null`; v1 sends no
/// machine-readable type, so the refusal is read from the message (``refusals``).
package enum PGErrorMapper {
    /// What the client may do after an answer.
    package enum Retry: Sendable, Hashable {
        /// Give up with the error.
        case never
        /// Fetch a new token and retry once; a second refusal is final.
        case refreshTokenOnce
        /// Wait the `Retry-After` seconds, then retry (the PG did not act).
        case afterRetryAfter
        /// Retry with exponential backoff and jitter if the request is safe to repeat
        /// (``PGRoute/isSafeToRepeat``).
        case backoffWhenSafe
    }

    /// One row of the HTTP table.
    package struct Rule: Sendable, Hashable {
        package let status: Int
        package let code: KeyCatError.Code
        package let retry: Retry
    }

    /// One row of the refusal table: a v1 message containing `keyword` is `code`.
    package struct Refusal: Sendable, Hashable {
        package let keyword: String
        package let code: KeyCatError.Code
    }

    /// The HTTP error statuses.
    package static let table: [Rule] = [
        Rule(status: 400, code: .gatewayInvalidRequest, retry: .never),
        Rule(status: 401, code: .gatewayAuthenticationFailed, retry: .refreshTokenOnce),
        Rule(status: 403, code: .gatewayForbidden, retry: .never),
        Rule(status: 404, code: .paymentNotFound, retry: .never),
        Rule(status: 429, code: .rateLimited, retry: .afterRetryAfter),
        Rule(status: 500, code: .gatewayUnavailable, retry: .backoffWhenSafe),
        Rule(status: 502, code: .gatewayUnavailable, retry: .backoffWhenSafe),
        Rule(status: 503, code: .gatewayUnavailable, retry: .backoffWhenSafe),
    ]

    /// v1's business refusals (HTTP 200, `code` ≠ 0), matched on the message in this order; a
    /// refusal matching none is `gatewayInvalidRequest` carrying v1's message. Never retried.
    package static let refusals: [Refusal] = [
        // "이미 전액취소된 주문입니다." (cancel of a payment cancelled in full)
        Refusal(keyword: "이미 전액취소", code: .paymentAlreadyCancelled),
        // the checksum is not the cancellable balance any more
        Refusal(keyword: "checksum", code: .cancellableAmountInconsistent),
        // a cancel of more than the cancellable balance
        Refusal(keyword: "초과", code: .cancelAmountExceedsCancellable),
        // prepare of a merchant UID already paid
        Refusal(keyword: "이미 결제완료", code: .alreadyPaid),
        // cancel of a payment never paid
        Refusal(keyword: "결제완료 상태가 아닌", code: .paymentNotPaid),
        // "취소할 결제건이 존재하지 않습니다." (cancel of an unknown payment)
        Refusal(keyword: "존재하지 않", code: .paymentNotFound),
    ]

    /// v1's refusal of a second `POST /payments/prepare` for one merchant UID. Not an error for
    /// KeyCat: the client reads the registration back and compares the amount.
    package static let alreadyPreparedKeyword = "사전등록된 merchant_uid"

    /// No answer in time: the PG may have acted. Retried only when safe to repeat.
    package static let timeout = Rule(status: 0, code: .gatewayTimeout, retry: .backoffWhenSafe)
    /// No connection: the PG never saw the request, so even an unsafe request may be retried.
    package static let connectionFailed = Rule(status: 0, code: .gatewayUnavailable, retry: .backoffWhenSafe)
    /// Our own task was cancelled while waiting: the PG may have acted, and nothing is retried.
    package static let cancelled = Rule(status: 0, code: .gatewayTimeout, retry: .never)
    /// A body that is not the envelope.
    package static let malformed = Rule(status: 0, code: .invalidGatewayResponse, retry: .never)

    /// The rule for an HTTP error answer: the status's row, else any other 5xx is an unavailable
    /// gateway and any other 4xx our bad request.
    package static func rule(status: Int) -> Rule {
        if let row = table.first(where: { $0.status == status }) { return row }
        if status >= 500 { return Rule(status: status, code: .gatewayUnavailable, retry: .backoffWhenSafe) }
        return Rule(status: status, code: .gatewayInvalidRequest, retry: .never)
    }

    /// The domain code of a v1 business refusal's message.
    package static func refusalCode(message: String?) -> KeyCatError.Code {
        guard let message else { return .gatewayInvalidRequest }
        return refusals.first { message.contains($0.keyword) }?.code ?? .gatewayInvalidRequest
    }

    /// The domain error for a v1 business refusal, with v1's `code` and message in the context
    /// (`pg_code`, `pg_message`).
    package static func refusalError(code: Int, message: String?) -> KeyCatError {
        let base = error(for: Rule(status: 200, code: refusalCode(message: message), retry: .never), status: 200, message: message)
        var context = base.context
        context["pg_code"] = String(code)
        if let message { context["pg_message"] = Redactor.text(message) }
        return KeyCatError(base.code, base.message, context: context)
    }

    /// The domain error for `rule`, with the PG's status in the context (`pg_status`),
    /// `retry_after` for a 429 (1 s when the PG did not say) and `outcome: unknown` for a timeout.
    package static func error(for rule: Rule, status: Int?, message: String?, retryAfterSeconds: Int? = nil) -> KeyCatError {
        var context: [String: String] = [:]
        if let status { context["pg_status"] = String(status) }
        // A rate limit always says when to come back (DESIGN's 429 + `Retry-After`): the PG's
        // own delay, else a second.
        if let retryAfter = retryAfterSeconds ?? (rule.code == .rateLimited ? 1 : nil) { context["retry_after"] = String(retryAfter) }
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
