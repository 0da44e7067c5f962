internal import CCrypto

/// PBKDF2 with HMAC-SHA256 as the pseudo-random function (RFC 8018 §5.2), over libcrypto.
package enum PBKDF2 {
    /// Derives `byteCount` bytes from `password` and `salt` with `iterations` rounds.
    ///
    /// - Throws: ``CryptoError`` when libcrypto refuses the parameters (e.g. zero iterations).
    package static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, byteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard iterations > 0, iterations <= Int(Int32.max), byteCount > 0, byteCount <= Int(Int32.max) else {
            throw CryptoError(
                operation: "PBKDF2-HMAC-SHA256", openSSLCode: 0,
                reason: "iterations and length must be positive 32-bit numbers")
        }
        var key = [UInt8](repeating: 0, count: byteCount)
        let ok = password.withUnsafeBufferPointer { password in
            salt.withUnsafeBufferPointer { salt in
                key.withUnsafeMutableBufferPointer { output in
                    password.withMemoryRebound(to: CChar.self) { password in
                        PKCS5_PBKDF2_HMAC(
                            password.baseAddress, Int32(password.count),
                            salt.baseAddress, Int32(salt.count),
                            Int32(iterations), EVP_sha256(),
                            Int32(byteCount), output.baseAddress)
                    }
                }
            }
        }
        guard ok == 1 else { throw CryptoError.fromQueue("PBKDF2-HMAC-SHA256") }
        return key
    }
}
