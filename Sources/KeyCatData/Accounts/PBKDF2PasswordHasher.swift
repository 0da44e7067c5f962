import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Passwords hashed with PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) and a 16-byte random salt, stored
/// as the self-describing string `pbkdf2-sha256$<iterations>$<base64url salt>$<base64url hash>`.
///
/// 600,000 iterations by default, OWASP's 2023 figure for PBKDF2-HMAC-SHA256. Passwords are
/// normalised to Unicode NFC first, so the same password typed on two keyboards matches.
///
/// Each hash or check (about 150 ms of CPU at the default) runs on threads of its own
/// (`keycat-hash-N`), one per core and shared by every hasher in the process: a flood of log-ins
/// queues there, while the caller's executor — Swift's global pool, which every request of a
/// server shares — stays free.
package struct PBKDF2PasswordHasher: PasswordHasher {
    /// Where the derivations run. As many threads as cores: the work is all CPU, so more would
    /// only take turns.
    private static let threads = DedicatedThreads(count: ProcessInfo.processInfo.activeProcessorCount, name: "keycat-hash")

    package static let defaultIterations = 600_000
    static let algorithm = "pbkdf2-sha256"
    static let saltByteCount = 16
    static let hashByteCount = 32
    /// Stored strings claiming more are refused rather than run: a guard against a tampered row.
    static let maximumIterations = 10_000_000

    /// The iterations new hashes use; stored hashes with fewer are upgraded at log-in.
    package let iterations: Int

    package init(iterations: Int = PBKDF2PasswordHasher.defaultIterations) {
        precondition(iterations > 0 && iterations <= Self.maximumIterations, "PBKDF2 iterations out of range")
        self.iterations = iterations
    }

    package func hash(_ password: String) async throws(KeyCatError) -> String {
        try await withTaskExecutorPreference(Self.threads) { () throws(KeyCatError) -> String in try derive(password) }
    }

    package func verify(_ password: String, against stored: String) async -> Bool {
        await withTaskExecutorPreference(Self.threads) { check(password, against: stored) }
    }

    private func derive(_ password: String) throws(KeyCatError) -> String {
        do {
            let salt = try SecureRandom.bytes(count: Self.saltByteCount)
            let key = try PBKDF2.deriveKey(
                password: Self.bytes(of: password), salt: salt, iterations: iterations, byteCount: Self.hashByteCount)
            return "\(Self.algorithm)$\(iterations)$\(Base64URL.encode(salt))$\(Base64URL.encode(key))"
        } catch {
            // CryptoError carries OpenSSL's code and reason, never the password.
            throw KeyCatError(.internalError, "password hashing failed: \(error)")
        }
    }

    private func check(_ password: String, against stored: String) -> Bool {
        guard let parsed = Self.parse(stored),
              let key = try? PBKDF2.deriveKey(
                password: Self.bytes(of: password), salt: parsed.salt, iterations: parsed.iterations,
                byteCount: parsed.hash.count)
        else { return false }
        return ConstantTime.equals(key, parsed.hash)
    }

    package func needsRehash(_ stored: String) -> Bool {
        guard let parsed = Self.parse(stored) else { return true }
        return parsed.iterations < iterations || parsed.salt.count < Self.saltByteCount
            || parsed.hash.count < Self.hashByteCount
    }

    static func parse(_ stored: String) -> (iterations: Int, salt: [UInt8], hash: [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == algorithm,
              let iterations = Int(parts[1]), (1...maximumIterations).contains(iterations),
              let salt = Base64URL.decode(parts[2]), !salt.isEmpty,
              let hash = Base64URL.decode(parts[3]), !hash.isEmpty
        else { return nil }
        return (iterations, salt, hash)
    }

    private static func bytes(of password: String) -> [UInt8] {
        Array(password.precomposedStringWithCanonicalMapping.utf8)
    }
}
