// Access tokens come from the `Authorization` header: any text at all.
// Contract: a token verifies to a principal or throws `invalid_token` / `access_token_expired`.
// Claims that were signed but are not what the codec writes are refused too, not trusted. A
// token the codec issued verifies to the principal it was issued for, until it expires.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain
@testable import KeyCatInfrastructure

private let key = Array(repeating: UInt8(0x4B), count: 32)
private let codec = JWTAccessTokenCodec(key: key)
/// 2026-01-01T00:00:00Z, the time every verification below happens at.
private let now = Date(timeIntervalSince1970: 1_767_225_600)

private func checkVerification(_ token: String) {
    do {
        let principal = try codec.verify(token, at: now)
        FuzzContract.expect(principal.userID.rawValue > 0, "an accepted token names a real user")
    } catch {
        FuzzContract.expect([.invalidToken, .accessTokenExpired].contains(error.code),
                            "token errors are invalid_token or access_token_expired, got \(error.code)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func accessTokenFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    // 1. The input as a token, as a client would send it.
    checkVerification(String(decoding: bytes, as: UTF8.self))

    // 2. The input as the claims of a correctly signed token, to reach the claims reader that
    //    an unsigned token never gets to.
    let signingInput = JWTAccessTokenCodec.encodedHeader + "." + Base64URL.encode(bytes)
    let tag = HMACSHA256.authenticationCode(for: Array(signingInput.utf8), key: key)
    checkVerification(signingInput + "." + Base64URL.encode(tag))

    // 3. Issue then verify is the identity while the token is fresh.
    var tail = FuzzTail(bytes)
    let id = tail.int64()
    let role = Role.allCases[Int(tail.byte()) % Role.allCases.count]
    if id > 0 {
        let principal = Principal(userID: UserID(id), role: role)
        let issuedAt = now.addingTimeInterval(-Double(tail.byte() % 60))
        do {
            let token = try codec.issue(for: principal, at: issuedAt)
            FuzzContract.expect((try? codec.verify(token, at: now)) == principal, "issue then verify is the identity")
            let expired = issuedAt.addingTimeInterval(JWTAccessTokenCodec.defaultLifetime)
            FuzzContract.expect((try? codec.verify(token, at: expired)) == nil, "a token expires after its lifetime")
        } catch {
            FuzzContract.expect(false, "issuing a token failed: \(error)")
        }
    }
    return 0
}
