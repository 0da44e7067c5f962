import Foundation
import KeyCatDomain
import Synchronization
import Testing
@testable import KeyCatData

@Suite("PBKDF2 password hasher")
struct PasswordHasherTests {
    let hasher = PBKDF2PasswordHasher(iterations: 1_000)

    @Test("the stored string describes algorithm, iterations, a 16-byte salt and a 32-byte hash")
    func format() async throws {
        let stored = try await hasher.hash("keycat2026")
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
    func verify() async throws {
        let stored = try await hasher.hash("keycat2026")
        #expect(await hasher.verify("keycat2026", against: stored))
        #expect(await !hasher.verify("keycat2027", against: stored))
        #expect(await !hasher.verify("", against: stored))
    }

    @Test("the same password hashes differently each time (random salt)")
    func salted() async throws {
        let first = try await hasher.hash("keycat2026")
        let second = try await hasher.hash("keycat2026")
        #expect(first != second)
    }

    @Test("composed and decomposed Hangul are the same password")
    func unicodeNormalisation() async throws {
        let composed = "비밀번호1234"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        let stored = try await hasher.hash(composed)
        #expect(await hasher.verify(decomposed, against: stored))
    }

    @Test("malformed stored strings never verify and always need a rehash", arguments: [
        "", "plain", "pbkdf2-sha256$1000$$", "pbkdf2-sha1$1000$c2FsdA$aGFzaA", "pbkdf2-sha256$0$c2FsdA$aGFzaA",
        "pbkdf2-sha256$99999999999$c2FsdA$aGFzaA", "pbkdf2-sha256$abc$c2FsdA$aGFzaA", "pbkdf2-sha256$1000$c2FsdA$aGFzaA$x",
    ])
    func malformed(stored: String) async {
        #expect(await !hasher.verify("keycat2026", against: stored))
        #expect(hasher.needsRehash(stored))
    }

    @Test("hashes with fewer iterations than configured need a rehash; equal or more do not")
    func needsRehash() async throws {
        let weak = try await PBKDF2PasswordHasher(iterations: 500).hash("keycat2026")
        let same = try await hasher.hash("keycat2026")
        let stronger = try await PBKDF2PasswordHasher(iterations: 2_000).hash("keycat2026")
        #expect(hasher.needsRehash(weak))
        #expect(!hasher.needsRehash(same))
        #expect(!hasher.needsRehash(stronger))
        #expect(await hasher.verify("keycat2026", against: weak))
    }

    @Test("the default is 600,000 iterations")
    func defaultIterations() {
        #expect(PBKDF2PasswordHasher().iterations == 600_000)
    }

    /// Waiting never blocks (architecture §7), and neither does hashing: more hashes than cores
    /// are started, each long enough (1,000,000 iterations) that, run on the caller's pool, they
    /// would hold all of its threads and the plain task started after them would finish only
    /// after the first of them. No duration is asserted, only the order.
    @Test("a plain task finishes while more hashes than cores are running: hashing holds none of the caller's threads")
    func hashingLeavesTheCallersPoolFree() async throws {
        let slow = PBKDF2PasswordHasher(iterations: 1_000_000)
        let finished = FinishOrder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0...ProcessInfo.processInfo.activeProcessorCount {
                group.addTask {
                    _ = try await slow.hash("keycat2026")
                    finished.append("hash")
                }
            }
            await Task { finished.append("plain task") }.value
            try await group.waitForAll()
        }
        let order = finished.names
        #expect(order.first == "plain task")
        #expect(order.count == ProcessInfo.processInfo.activeProcessorCount + 2)
    }
}

/// The order in which concurrent work finished.
private final class FinishOrder: Sendable {
    private let order = Mutex<[String]>([])
    var names: [String] { order.withLock { $0 } }
    func append(_ name: String) { order.withLock { $0.append(name) } }
}
