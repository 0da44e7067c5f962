/// A signing key a server passes in ``KeyCat/Configuration`` (from its own secret store)
/// instead of letting KeyCat create and keep one in the database.
///
/// At least 32 bytes. Its description, debug description and mirror never show the bytes, so
/// printing or dumping a configuration cannot leak it.
public struct SecretKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The minimum length in bytes.
    public static let minimumByteCount = 32

    let bytes: [UInt8]

    /// - Throws: a validation error when `bytes` is shorter than 32.
    public init(bytes: [UInt8]) throws(KeyCatError) {
        guard bytes.count >= Self.minimumByteCount else {
            throw KeyCatError.validation("secret_key", "a secret key must be at least 32 bytes")
        }
        self.bytes = bytes
    }

    public var description: String { "SecretKey(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
