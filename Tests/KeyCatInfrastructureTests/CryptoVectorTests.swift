import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("Crypto against published test vectors")
struct CryptoVectorTests {
    // FIPS 180-2, appendix B (and the empty string from NIST's examples).
    @Test("SHA-256 matches FIPS 180-2", arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(message: String, digest: String) {
        #expect(SHA256.hash(message).hex == digest)
    }

    @Test("SHA-256 of a million 'a's matches FIPS 180-2 B.3")
    func sha256Million() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // RFC 4231 §4.2–4.8. Test case 5 checks a tag truncated to 128 bits.
    @Test("HMAC-SHA256 matches RFC 4231", arguments: [
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         String(repeating: "dd", count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819",
         String(repeating: "cd", count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ("0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "546573742057697468205472756e636174696f6e",
         "a3b6167473100ee06e0c796c2955552b"),
        (String(repeating: "aa", count: 131),
         "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func hmac(key: String, data: String, expected: String) {
        let tag = HMACSHA256.authenticationCode(for: [UInt8](hex: data), key: [UInt8](hex: key))
        #expect(tag.hex.hasPrefix(expected))
        #expect(tag.count == 32)
        // The prepared key gives the same tags, for keys shorter and longer than a block.
        let prepared = HMACKey([UInt8](hex: key))
        #expect(prepared.authenticationCode(for: [UInt8](hex: data)) == tag)
        #expect(prepared.authenticationCode(for: [UInt8](hex: data)) == tag)
        #expect(prepared.isValid(tag, for: [UInt8](hex: data)))
    }

    @Test("HMAC verification accepts the right tag and rejects any other")
    func hmacVerification() {
        let key = [UInt8](hex: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b")
        let message = Array("Hi There".utf8)
        var tag = HMACSHA256.authenticationCode(for: message, key: key)
        #expect(HMACSHA256.isValid(tag, for: message, key: key))
        tag[31] ^= 1
        #expect(!HMACSHA256.isValid(tag, for: message, key: key))
        #expect(!HMACSHA256.isValid(Array(tag.prefix(16)), for: message, key: key))
        // Empty keys and messages are legal HMAC inputs.
        #expect(HMACSHA256.authenticationCode(for: [], key: []).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    // RFC 7914 §11.
    @Test("PBKDF2-HMAC-SHA256 matches RFC 7914 §11", arguments: [
        ("passwd", "salt", 1,
         "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"),
        ("Password", "NaCl", 80_000,
         "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"),
    ])
    func pbkdf2(password: String, salt: String, iterations: Int, expected: String) throws {
        let key = try PBKDF2.deriveKey(
            password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, byteCount: 64)
        #expect(key.hex == expected)
    }

    @Test("PBKDF2 refuses zero iterations with a typed error")
    func pbkdf2Invalid() {
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(password: [1], salt: [2], iterations: 0, byteCount: 32)
        }
    }

    // RFC 4648 §10, in the URL-safe alphabet without padding.
    @Test("base64url matches RFC 4648 §10", arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func base64url(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("base64url uses - and _ and round-trips every byte")
    func base64urlAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        let all = [UInt8](0...255)
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
    }

    @Test("base64url rejects padding, foreign characters, bad lengths and stray bits",
          arguments: ["Zg==", "Zm9v+", "Zm9v/", "Z", "Zm9vY", "Zh", "Zm9 v", "é"])
    func base64urlRejects(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("constant-time equality compares bytes and lengths")
    func constantTime() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([], []))
    }

    @Test("random bytes come in the asked length and differ between draws")
    func random() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
    }
}

