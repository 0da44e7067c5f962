internal import CCrypto

/// Comparisons whose running time does not depend on where the inputs differ.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes. Inputs of different lengths are unequal
    /// (the length itself is not secret); equal lengths are compared with `CRYPTO_memcmp`.
    package static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { lhs in
            rhs.withUnsafeBytes { rhs in
                CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
            }
        }
    }
}
