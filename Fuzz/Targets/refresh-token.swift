// Refresh tokens come back from clients as any text; they are looked up by their digest.
// Contract: a token has a digest only when it is the base64url of 32 bytes, written the one way
// base64url writes them; minting and digesting agree.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain
@testable import KeyCatInfrastructure

private let minter = RandomRefreshTokenMinter()

@_cdecl("LLVMFuzzerTestOneInput")
public func refreshTokenFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)

    if let digest = minter.digest(of: text) {
        let raw = Base64URL.decode(text)
        FuzzContract.expect(raw?.count == 32, "only 32-byte tokens have a digest")
        FuzzContract.expect(digest == TokenDigest(bytes: SHA256.hash(raw ?? [])), "the digest is SHA-256 of the bytes")
    }
    // Base64url, which every token in KeyCat is written in: one spelling per byte string.
    if let decoded = Base64URL.decode(text) {
        FuzzContract.expect(Base64URL.encode(decoded) == text, "an accepted base64url text has one spelling")
    }
    FuzzContract.expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "encode then decode is the identity")

    // A token minted from these bytes (padded or cut to 32) digests to the digest of its bytes.
    let tokenBytes = Array((bytes + Array(repeating: 0, count: 32)).prefix(32))
    let token = Base64URL.encode(tokenBytes)
    FuzzContract.expect(token.utf8.count == 43, "a refresh token is 43 characters")
    FuzzContract.expect(minter.digest(of: token) == TokenDigest(bytes: SHA256.hash(tokenBytes)), "round trip")
    return 0
}
