import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

@Suite("JWT access tokens")
struct JWTAccessTokenCodecTests {
    static let key = [UInt8](repeating: 0x42, count: 32)
    let codec = JWTAccessTokenCodec(key: Self.key)
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let principal = Principal(userID: UserID(42), role: .seller)

    /// A token signed with `key` over any header and payload, for forging tests.
    static func sign(header: String, payload: String, key: [UInt8] = key) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(input.utf8), key: key))
    }

    static let header = #"{"alg":"HS256","typ":"JWT"}"#
    static func payload(sub: String = "42", role: String = "seller", iat: Int = 1_767_225_600,
                        exp: Int = 1_767_226_500, iss: String = "keycat") -> String {
        #"{"exp":\#(exp),"iat":\#(iat),"iss":"\#(iss)","role":"\#(role)","sub":"\#(sub)"}"#
    }

    @Test("a fresh token verifies into its principal")
    func roundTrip() throws {
        let token = try codec.issue(for: principal, at: now)
        #expect(try codec.verify(token, at: now) == principal)
        #expect(try codec.verify(token, at: now.addingTimeInterval(899)) == principal)
    }

    @Test("the token carries the pinned header and the sub, role, iat, exp and iss claims")
    func claims() throws {
        let token = try codec.issue(for: principal, at: now)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) } == Self.header)
        let claims = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(parts[1])))) as? [String: Any]
        #expect(claims?["sub"] as? String == "42")
        #expect(claims?["role"] as? String == "seller")
        #expect(claims?["iat"] as? Int == 1_767_225_600)
        #expect(claims?["exp"] as? Int == 1_767_225_600 + 900)
        #expect(claims?["iss"] as? String == "keycat")
    }

    @Test("a hand-signed token with our header and claims verifies (the format is standard JWT)")
    func interoperable() throws {
        let token = Self.sign(header: Self.header, payload: Self.payload())
        #expect(try codec.verify(token, at: now) == principal)
    }

    @Test("a token at or past its expiry is access_token_expired")
    func expired() throws {
        let token = try codec.issue(for: principal, at: now)
        for offset in [900.0, 901, 86_400] {
            #expect(throws: KeyCatError.self) { try codec.verify(token, at: now.addingTimeInterval(offset)) }
            #expect(keycatError { try codec.verify(token, at: now.addingTimeInterval(offset)) }?.code == .accessTokenExpired)
        }
    }

    /// Every way a token can be wrong, each `invalid_token`.
    static func tamperedTokens() throws -> [(String, String)] {
        let codec = JWTAccessTokenCodec(key: key)
        let good = try codec.issue(for: Principal(userID: UserID(42), role: .seller), at: Date(timeIntervalSince1970: 1_767_225_600))
        let parts = good.split(separator: ".").map(String.init)
        let adminPayload = Base64URL.encode(Array(payload(role: "admin").utf8))
        let otherUser = Base64URL.encode(Array(payload(sub: "1").utf8))
        let laterExpiry = Base64URL.encode(Array(payload(exp: 1_999_999_999).utf8))
        let noneHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let hs512Header = Base64URL.encode(Array(#"{"alg":"HS512","typ":"JWT"}"#.utf8))
        let reorderedHeader = Base64URL.encode(Array(#"{"typ":"JWT","alg":"HS256"}"#.utf8))
        var flipped = Array(parts[2].utf8)
        flipped[0] = flipped[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return [
            ("payload changed to admin", parts[0] + "." + adminPayload + "." + parts[2]),
            ("payload changed to another user", parts[0] + "." + otherUser + "." + parts[2]),
            ("payload changed to a later expiry", parts[0] + "." + laterExpiry + "." + parts[2]),
            ("header changed to HS512", hs512Header + "." + parts[1] + "." + parts[2]),
            ("header reordered", reorderedHeader + "." + parts[1] + "." + parts[2]),
            ("alg none, no signature", noneHeader + "." + parts[1] + "."),
            ("alg none, original signature", noneHeader + "." + parts[1] + "." + parts[2]),
            ("alg none, correctly signed anyway", sign(header: #"{"alg":"none","typ":"JWT"}"#, payload: payload())),
            ("truncated signature", String(good.dropLast(5))),
            ("signature removed", parts[0] + "." + parts[1] + "."),
            ("only two parts", parts[0] + "." + parts[1]),
            ("four parts", good + "." + parts[2]),
            ("signature flipped", parts[0] + "." + parts[1] + "." + String(decoding: flipped, as: UTF8.self)),
            ("signed with another key", sign(header: header, payload: payload(), key: [UInt8](repeating: 0x43, count: 32))),
            ("signed with an empty key", sign(header: header, payload: payload(), key: [])),
            ("wrong issuer", sign(header: header, payload: payload(iss: "evil"))),
            ("unknown role", sign(header: header, payload: payload(role: "root"))),
            ("non-numeric subject", sign(header: header, payload: payload(sub: "kim"))),
            ("zero subject", sign(header: header, payload: payload(sub: "0"))),
            ("payload not JSON", sign(header: header, payload: "hello")),
            ("padding in base64", parts[0] + "=." + parts[1] + "." + parts[2]),
            ("empty", ""),
            ("garbage", "not.a.jwt"),
            ("huge", String(repeating: "a", count: 5_000)),
        ]
    }

    @Test("tampered, forged and malformed tokens are invalid_token", arguments: try tamperedTokens())
    func tampered(name: String, token: String) async {
        let error = keycatError { try codec.verify(token, at: now) }
        #expect(error?.code == .invalidToken, "\(name)")
        #expect(error.map { !$0.message.contains(token) || token.isEmpty } == true)
    }

    @Test("a tampered token stays invalid_token even after its expiry (no expiry oracle for forgeries)")
    func tamperedAndExpired() throws {
        let forged = Self.sign(header: Self.header, payload: Self.payload(), key: [UInt8](repeating: 1, count: 32))
        #expect(keycatError { try codec.verify(forged, at: now.addingTimeInterval(10_000)) }?.code == .invalidToken)
    }

    @Test("a token from another issuer configuration does not verify")
    func otherIssuer() throws {
        let other = JWTAccessTokenCodec(key: Self.key, issuer: "keycat-staging")
        let token = try other.issue(for: principal, at: now)
        #expect(keycatError { try codec.verify(token, at: now) }?.code == .invalidToken)
    }
}
