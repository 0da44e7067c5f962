import KeyCatDomain
import KeyCatInfrastructure

/// Refresh tokens of 32 random bytes from OpenSSL's CSPRNG, handed out as 43 base64url
/// characters and stored only as their SHA-256 digest. Random tokens this long need no slow
/// hash: the digest cannot be reversed or guessed.
package struct RandomRefreshTokenMinter: RefreshTokenMinter {
    static let byteCount = 32

    package init() {}

    package func mint() throws(KeyCatError) -> (token: String, digest: TokenDigest) {
        let bytes: [UInt8]
        do {
            bytes = try SecureRandom.bytes(count: Self.byteCount)
        } catch {
            throw KeyCatError(.internalError, "the random generator failed: \(error)")
        }
        return (Base64URL.encode(bytes), TokenDigest(bytes: SHA256.hash(bytes)))
    }

    package func digest(of token: String) -> TokenDigest? {
        guard token.utf8.count <= 64, let bytes = Base64URL.decode(token), bytes.count == Self.byteCount else {
            return nil
        }
        return TokenDigest(bytes: SHA256.hash(bytes))
    }
}
