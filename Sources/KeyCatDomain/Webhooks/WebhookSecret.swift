import Foundation

/// An endpoint's signing secret as Standard Webhooks writes it: `whsec_` and the base64 of the
/// key bytes (<https://www.standardwebhooks.com>, "Signature scheme").
///
/// KeyCat makes secrets of ``generatedByteCount`` random bytes; a secret an operator brings
/// must decode to 24–64 bytes.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    /// The prefix every secret starts with.
    public static let prefix = "whsec_"
    /// How many random bytes a generated secret holds.
    public static let generatedByteCount = 32
    /// The key lengths accepted, in bytes.
    public static let byteRange = 24...64

    /// `whsec_…`.
    public let rawValue: String

    /// - Throws: `validation` on `secret` when the text is not `whsec_` and the base64 of
    ///   24–64 bytes.
    public init(_ text: String) throws(KeyCatError) {
        guard text.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))) else {
            throw .validation("secret", "a secret is whsec_ followed by base64 (leave it out to have one made)")
        }
        guard Self.byteRange.contains(bytes.count) else {
            throw .validation("secret", "a secret must hold 24–64 bytes, this one holds \(bytes.count)")
        }
        rawValue = text
    }

    /// The secret made of `bytes` (a generator's random bytes).
    public init(bytes: [UInt8]) {
        rawValue = Self.prefix + Data(bytes).base64EncodedString()
    }

    /// A secret read back from storage.
    public init(stored text: String) { rawValue = text }

    /// Redacted: a secret is printed once, when it is made, through ``rawValue``.
    public var description: String { Self.prefix + "…" }
}
