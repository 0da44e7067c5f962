import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Access tokens as JSON Web Tokens signed with HMAC-SHA256 (RFC 7519, RFC 7515 §A.1),
/// written here on libcrypto rather than taken from a package.
///
/// The header is pinned: a token is accepted only when its header segment is byte for byte the
/// one this codec writes, `{"alg":"HS256","typ":"JWT"}`. That shuts out `alg: none`, algorithm
/// confusion and every other header trick (RFC 8725 §2.1, §3.1) without parsing the header.
/// The tag is compared in constant time, and claims are read only after it checks out. Besides
/// `sub`, `role`, `iat`, `exp` and `iss`, a token carries `ver`, the account's token version,
/// which ``AccountService/authenticate(accessToken:)`` compares with the stored one.
package struct JWTAccessTokenCodec: AccessTokenCodec {
    /// Fifteen minutes (architecture §4).
    package static let defaultLifetime: TimeInterval = 15 * 60
    /// Longer input is refused before any work.
    static let maximumTokenLength = 4096
    static let encodedHeader = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    private struct Claims: Codable {
        var sub: String
        var role: String
        var iat: Int64
        var exp: Int64
        var iss: String
        /// The account's token version; tokens from before versions existed read as 0.
        var ver: Int64?
    }

    /// The signing key, prepared once: a token check costs two hash-state copies, not a key schedule.
    private let key: HMACKey
    /// The `iss` claim written and required.
    package let issuer: String
    package let lifetime: TimeInterval

    /// - Parameter key: the HMAC key, at least 32 bytes (RFC 7518 §3.2 asks for the hash size).
    package init(key: [UInt8], issuer: String = "keycat", lifetime: TimeInterval = JWTAccessTokenCodec.defaultLifetime) {
        precondition(key.count >= KeyCatSecrets.minimumByteCount, "the token signing key must be at least 32 bytes")
        self.key = HMACKey(key)
        self.issuer = issuer
        self.lifetime = lifetime
    }

    package func issue(for principal: Principal, version: Int64, at now: Date) throws(KeyCatError) -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            sub: String(principal.userID.rawValue), role: principal.role.rawValue,
            iat: issuedAt, exp: issuedAt + Int64(lifetime), iss: issuer, ver: version)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let payload = try? encoder.encode(claims) else {
            throw KeyCatError(.internalError, "could not encode token claims")
        }
        let signingInput = Self.encodedHeader + "." + Base64URL.encode(payload)
        let tag = key.authenticationCode(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(tag)
    }

    package func claims(of token: String, at now: Date) throws(KeyCatError) -> AccessTokenClaims {
        let invalid = KeyCatError(.invalidToken, "the access token is not valid")
        guard token.utf8.count <= Self.maximumTokenLength else { throw invalid }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.encodedHeader,
              let tag = Base64URL.decode(parts[2]), tag.count == HMACSHA256.byteCount
        else { throw invalid }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValid(tag, for: signingInput) else { throw invalid }
        guard let payload = Base64URL.decode(parts[1]),
              let claims = try? JSONDecoder().decode(Claims.self, from: Data(payload)),
              claims.iss == issuer, let id = Int64(claims.sub), id > 0,
              let role = Role(rawValue: claims.role), claims.iat <= claims.exp, (claims.ver ?? 0) >= 0
        else { throw invalid }
        guard Int64(now.timeIntervalSince1970.rounded(.down)) < claims.exp else {
            throw KeyCatError(.accessTokenExpired, "the access token has expired; refresh it")
        }
        return AccessTokenClaims(principal: Principal(userID: UserID(id), role: role), version: claims.ver ?? 0)
    }
}
