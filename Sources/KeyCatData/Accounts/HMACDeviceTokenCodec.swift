import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Device tokens signed with HMAC-SHA256, as OWASP's device cookies are (`LOGIN,NONCE,SIGNATURE`):
/// nothing is stored, so checking one costs no storage access and issuing one no write.
///
/// A token is 98 base64url characters of 73 bytes: a format byte (1), the expiry in Unix seconds,
/// the account's id and its version (8 each, big-endian), a random nonce (16) and the tag (32)
/// over those 41 bytes and the case-folded email. The email is not in the token, only under its tag: a token checks out for the email it
/// was issued for and no other. The nonce names the device, so each token has a budget of its
/// own. The tag is compared in constant time.
///
/// The key is derived from the access-token signing key (``derivedKey(from:)``), so there is no
/// other secret to keep; a new signing key ends every device token, and their owners count as
/// strangers until their next log-in. A token stays valid until it expires, also after a
/// password change: it only lifts the strangers' throttle, and its holder still needs the password.
package struct HMACDeviceTokenCodec: DeviceTokenCodec {
    /// Format 3 carries the account's id and version. Format 1 (before 2026-11-30) carried
    /// neither, format 2 (before 2026-12-01) no id; neither is honoured any more: their holders
    /// count as strangers until their next log-in.
    static let format: UInt8 = 3
    static let nonceCount = 16
    static let signedCount = 1 + 8 + 8 + 8 + nonceCount
    static let tokenCount = signedCount + HMACSHA256.byteCount

    private let key: HMACKey

    /// - Parameter key: the HMAC key, at least 32 bytes.
    package init(key: [UInt8]) {
        precondition(key.count >= KeyCatSecrets.minimumByteCount, "the device token key must be at least 32 bytes")
        self.key = HMACKey(key)
    }

    /// The device-token key for a server whose access tokens are signed with `signingKey`: an
    /// HMAC of a fixed label under it, so the two keys are never one (a JWT's tag is never a
    /// device token's).
    package static func derivedKey(from signingKey: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(for: Array("keycat device token key v1".utf8), key: signingKey)
    }

    package func issue(for email: String, account: UserID, accountVersion: Int64, expiresAt: Date) throws(KeyCatError) -> DeviceToken {
        let nonce: [UInt8]
        do {
            nonce = try SecureRandom.bytes(count: Self.nonceCount)
        } catch {
            throw KeyCatError(.internalError, "the random generator failed: \(error)")
        }
        let seconds = Int64(expiresAt.timeIntervalSince1970.rounded(.down))
        let signed = [Self.format] + Self.bytes(seconds) + Self.bytes(account.rawValue) + Self.bytes(accountVersion) + nonce
        let tag = key.authenticationCode(for: signed + Array(email.utf8))
        return DeviceToken(token: Base64URL.encode(signed + tag), expiresAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    package func device(of token: String, for email: String, at now: Date) -> PresentedDevice? {
        guard token.utf8.count <= 100, let bytes = Base64URL.decode(token), bytes.count == Self.tokenCount,
              bytes[0] == Self.format else { return nil }
        let signed = Array(bytes.prefix(Self.signedCount))
        guard key.isValid(Array(bytes.suffix(HMACSHA256.byteCount)), for: signed + Array(email.utf8)) else { return nil }
        guard Int64(now.timeIntervalSince1970.rounded(.down)) < Self.number(bytes[1..<9]) else { return nil }
        return PresentedDevice(id: Base64URL.encode(bytes[25..<Self.signedCount]), account: UserID(Self.number(bytes[9..<17])),
                               accountVersion: Self.number(bytes[17..<25]))
    }

    private static func bytes(_ number: Int64) -> [UInt8] { withUnsafeBytes(of: number.bigEndian) { Array($0) } }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64 { bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) } }
}
