import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A webhook that passed verification.
package struct VerifiedWebhook: Sendable, Hashable {
    /// `webhook-id`: the same across redeliveries of one event, the key to deduplicate on.
    package let id: String
    /// `webhook-timestamp`.
    package let sentAt: Date
    package let impUID: String
    package let merchantUID: String
    /// The status the PG reports; re-read the payment before acting on it.
    package let status: String

    /// ``status`` as a domain status, nil when the PG sent one the domain does not know.
    package var paymentStatus: GatewayPayment.Status? { GatewayPayment.Status(rawValue: status) }
}

/// Verifies PG webhooks signed the Standard Webhooks way
/// (<https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md>):
/// `webhook-signature` holds one or more space-separated `v1,<base64 HMAC-SHA256>` of
/// `"{webhook-id}.{webhook-timestamp}.{body}"`; one match under any of our secrets suffices, so
/// secrets can be rotated (the PG signs with both, or we accept both, for a while). Timestamps
/// more than ``tolerance`` away from our clock are refused against replays. Tags are compared in
/// constant time.
package struct WebhookVerifier: Sendable {
    /// The accepted secrets, prepared once (a webhook costs two hash-state copies per secret).
    private let keys: [HMACKey]
    private let clock: any WallClock
    /// How far the timestamp may be from now, either way. Five minutes by default.
    package let tolerance: Duration

    /// - Parameter secrets: every secret currently accepted, newest first (`whsec_<base64>` or raw).
    package init(secrets: [String], clock: any WallClock, tolerance: Duration = .seconds(300)) {
        keys = secrets.map { HMACKey(StandardWebhookSignature.key(for: $0)) }
        self.clock = clock
        self.tolerance = tolerance
    }

    /// Checks the headers and signature of a webhook, then reads its payload.
    ///
    /// - Parameter headers: the request's headers (names in any case).
    /// - Throws: the first ``WebhookVerificationFailure`` found, checking headers, then time,
    ///   then signature, then payload, so an unsigned body is never parsed.
    package func verify(headers: [String: String], body: Data) throws(WebhookVerificationFailure) -> VerifiedWebhook {
        let request = TransportRequest(method: .post, path: "/", headers: headers, body: body)
        func required(_ name: String) throws(WebhookVerificationFailure) -> String {
            guard let value = request.header(name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                throw .missingHeader(name)
            }
            return value
        }
        let id = try required("webhook-id")
        let timestampText = try required("webhook-timestamp")
        let signatures = try required("webhook-signature")
        guard let timestamp = Int64(timestampText) else { throw .malformedTimestamp }

        let skew = Double(timestamp) - clock.now().timeIntervalSince1970
        if skew < -tolerance.seconds { throw .timestampTooOld }
        if skew > tolerance.seconds { throw .timestampInFuture }

        let candidates = signatures.split(separator: " ").compactMap { signature -> [UInt8]? in
            guard signature.hasPrefix(StandardWebhookSignature.versionPrefix) else { return nil }
            return Data(base64Encoded: String(signature.dropFirst(StandardWebhookSignature.versionPrefix.count))).map { [UInt8]($0) }
        }
        guard !candidates.isEmpty else { throw .malformedSignature }
        let message = Array("\(id).\(timestamp).".utf8) + [UInt8](body)
        var matched = false
        for key in keys {
            let expected = key.authenticationCode(for: message)
            // Check every candidate, without stopping early, so timing says nothing about which.
            for candidate in candidates where ConstantTime.equals(candidate, expected) { matched = true }
        }
        guard matched else { throw .signatureMismatch }

        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let impUID = object["imp_uid"] as? String, let merchantUID = object["merchant_uid"] as? String,
              let status = object["status"] as? String
        else { throw .malformedPayload }
        return VerifiedWebhook(
            id: id, sentAt: Date(timeIntervalSince1970: TimeInterval(timestamp)), impUID: impUID,
            merchantUID: merchantUID, status: status)
    }
}
