internal import CCrypto

/// SHA-256 (FIPS 180-4) over libcrypto.
package enum SHA256 {
    /// The digest length in bytes.
    package static let byteCount = 32

    /// The SHA-256 digest of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest with the built-in SHA-256 fails only when memory runs out.
        precondition(ok == 1 && length == byteCount, "\(CryptoError.fromQueue("SHA-256"))")
        return digest
    }

    /// The SHA-256 digest of a string's UTF-8 bytes.
    package static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }
}
