import KeyCatDomain

/// Why a webhook was refused. Each reason is distinct so a server can log it and a test can
/// check it; the HTTP answer should not tell the sender which one it was.
package enum WebhookVerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// A required header (`webhook-id`, `webhook-timestamp`, `webhook-signature`) is absent or empty.
    case missingHeader(String)
    /// `webhook-timestamp` is not an integer number of seconds.
    case malformedTimestamp
    /// The timestamp is older than the tolerance: possibly a replay.
    case timestampTooOld
    /// The timestamp is further ahead than the tolerance.
    case timestampInFuture
    /// No signature in the header has the `v1,<base64>` form.
    case malformedSignature
    /// No signature matches the body under any of our secrets (tampered body or wrong secret).
    case signatureMismatch
    /// The signed body is not `{imp_uid, merchant_uid, status}`.
    case malformedPayload

    package var description: String {
        switch self {
        case let .missingHeader(name): "missing header \(name)"
        case .malformedTimestamp: "malformed webhook-timestamp"
        case .timestampTooOld: "the webhook timestamp is too old"
        case .timestampInFuture: "the webhook timestamp is in the future"
        case .malformedSignature: "malformed webhook-signature"
        case .signatureMismatch: "no webhook signature matches"
        case .malformedPayload: "malformed webhook payload"
        }
    }

    /// The domain error a server answers with: one 400 for every reason, so a sender probing
    /// the endpoint learns nothing of which check failed (log ``description`` instead).
    package var keyCatError: KeyCatError {
        KeyCatError(.validation, "the webhook could not be verified", context: ["field": "webhook"])
    }
}
