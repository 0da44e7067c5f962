internal import CCrypto

/// A libcrypto call failed. Carries the operation and OpenSSL's packed error code from
/// `ERR_get_error()` with its text, so a failure can be traced to its cause.
package struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// What we were doing, e.g. "HMAC-SHA256".
    package let operation: String
    /// The first code on OpenSSL's error queue, or 0 when it was empty.
    package let openSSLCode: UInt
    /// OpenSSL's text for the code.
    package let reason: String

    package init(operation: String, openSSLCode: UInt, reason: String) {
        self.operation = operation
        self.openSSLCode = openSSLCode
        self.reason = reason
    }

    /// Drains OpenSSL's thread-local error queue into an error for `operation`.
    static func fromQueue(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        if code != 0 { ERR_error_string_n(code, &buffer, buffer.count) }
        ERR_clear_error()
        let reason = code == 0
            ? "no OpenSSL error recorded"
            : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CryptoError(operation: operation, openSSLCode: UInt(code), reason: reason)
    }

    package var description: String { "\(operation) failed: \(reason) (OpenSSL error \(openSSLCode))" }
}
