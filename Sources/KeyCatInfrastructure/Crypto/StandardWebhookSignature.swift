import Foundation

/// The signature scheme of Standard Webhooks (<https://www.standardwebhooks.com>, "Verifying
/// webhooks"): `v1,` followed by the base64 HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{body}"`.
///
/// A secret of the form `whsec_<base64>` is used as the bytes it encodes, as the spec says; any
/// other secret is used as its UTF-8 bytes.
public enum StandardWebhookSignature {
    /// The version prefix of every signature this scheme makes.
    public static let versionPrefix = "v1,"

    /// The `webhook-signature` value for one message.
    public static func sign(id: String, timestamp: Int64, body: Data, secret: String) -> String {
        versionPrefix + Data(tag(id: id, timestamp: timestamp, body: body, secret: secret)).base64EncodedString()
    }

    /// The raw tag for one message.
    package static func tag(id: String, timestamp: Int64, body: Data, secret: String) -> [UInt8] {
        let message = Array("\(id).\(timestamp).".utf8) + [UInt8](body)
        return HMACSHA256.authenticationCode(for: message, key: key(for: secret))
    }

    /// The key bytes a secret stands for.
    package static func key(for secret: String) -> [UInt8] {
        if secret.hasPrefix("whsec_"), let decoded = Data(base64Encoded: String(secret.dropFirst(6))) {
            return [UInt8](decoded)
        }
        return Array(secret.utf8)
    }
}
