import Testing
import KeyCatDomain
@testable import KeyCatData

@Suite("PBKDF2 password hasher")
struct PasswordHasherTests {
    let hasher = PBKDF2PasswordHasher(iterations: 1_000)

    @Test("the stored string describes algorithm, iterations, a 16-byte salt and a 32-byte hash")
    func format() throws {
        let stored = try hasher.hash("keycat2026")
        let parts = stored.split(separator: "$")
        #expect(parts.count == 4)
        #expect(parts[0] == "pbkdf2-sha256")
        #expect(parts[1] == "1000")
        let parsed = try #require(PBKDF2PasswordHasher.parse(stored))
        #expect(parsed.salt.count == 16)
        #expect(parsed.hash.count == 32)
        #expect(!stored.contains("keycat2026"))
    }

    @Test("the right password verifies and a wrong one does not")
    func verify() throws {
        let stored = try hasher.hash("keycat2026")
        #expect(hasher.verify("keycat2026", against: stored))
        #expect(!hasher.verify("keycat2027", against: stored))
        #expect(!hasher.verify("", against: stored))
    }

    @Test("the same password hashes differently each time (random salt)")
    func salted() throws {
        #expect(try hasher.hash("keycat2026") != hasher.hash("keycat2026"))
    }

    @Test("composed and decomposed Hangul are the same password")
    func unicodeNormalisation() throws {
        let composed = "비밀번호1234"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(hasher.verify(decomposed, against: try hasher.hash(composed)))
    }

    @Test("malformed stored strings never verify and always need a rehash", arguments: [
        "", "plain", "pbkdf2-sha256$1000$$", "pbkdf2-sha1$1000$c2FsdA$aGFzaA", "pbkdf2-sha256$0$c2FsdA$aGFzaA",
        "pbkdf2-sha256$99999999999$c2FsdA$aGFzaA", "pbkdf2-sha256$abc$c2FsdA$aGFzaA", "pbkdf2-sha256$1000$c2FsdA$aGFzaA$x",
    ])
    func malformed(stored: String) {
        #expect(!hasher.verify("keycat2026", against: stored))
        #expect(hasher.needsRehash(stored))
    }

    @Test("hashes with fewer iterations than configured need a rehash; equal or more do not")
    func needsRehash() throws {
        let weak = try PBKDF2PasswordHasher(iterations: 500).hash("keycat2026")
        let same = try hasher.hash("keycat2026")
        let stronger = try PBKDF2PasswordHasher(iterations: 2_000).hash("keycat2026")
        #expect(hasher.needsRehash(weak))
        #expect(!hasher.needsRehash(same))
        #expect(!hasher.needsRehash(stronger))
        #expect(hasher.verify("keycat2026", against: weak))
    }

    @Test("the default is 600,000 iterations")
    func defaultIterations() {
        #expect(PBKDF2PasswordHasher().iterations == 600_000)
    }
}
