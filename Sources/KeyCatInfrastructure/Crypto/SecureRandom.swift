internal import CCrypto

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`), which OpenSSL 3
/// seeds and reseeds from the operating system's CSPRNG (`getrandom(2)` on Linux).
package enum SecureRandom {
    /// `count` random bytes.
    ///
    /// - Throws: ``CryptoError`` when the generator cannot be seeded.
    package static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw CryptoError.fromQueue("RAND_bytes") }
        return bytes
    }
}
