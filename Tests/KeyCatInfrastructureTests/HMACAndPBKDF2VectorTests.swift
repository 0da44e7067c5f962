import Foundation
import Testing
@testable import KeyCatInfrastructure

/// The primitives access tokens and passwords are built on, checked against published vectors.
@Suite("HMAC-SHA256 and PBKDF2 test vectors")
struct HMACAndPBKDF2VectorTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("HMAC-SHA256 matches RFC 4231 test cases 1 and 2")
    func hmacVectors() {
        let case1 = HMACSHA256.authenticationCode(
            for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
        #expect(Self.hex(case1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let case2 = HMACSHA256.authenticationCode(
            for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Self.hex(case2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMACSHA256.isValid(case2, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        #expect(!HMACSHA256.isValid(case1, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
    }

    @Test("PBKDF2-HMAC-SHA256 matches the published vectors", arguments: [
        (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
    ])
    func pbkdf2Vectors(iterations: Int, expected: String) throws {
        let key = try PBKDF2.deriveKey(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: iterations, byteCount: 32)
        #expect(Self.hex(key) == expected)
    }
}
