import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The keys KeyCat signs with: the access-token key, the cursor key and the key of the PG
/// simulator kept beside the database (its webhooks' signing secret), each 32+ random bytes.
///
/// A server may bring its own (from its secret store); otherwise the first open creates them
/// and keeps them in the `settings` table, so every process on the file agrees. They never
/// appear in descriptions, dumps or errors.
package struct KeyCatSecrets: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package static let minimumByteCount = 32
    static let tokenSigningKeyName = "secret.token_signing_key"
    static let cursorKeyName = "secret.cursor_key"
    static let simulatorWebhookKeyName = "secret.pg_simulator_webhook_key"

    package let tokenSigningKey: [UInt8]
    package let cursorKey: [UInt8]
    /// The simulator's webhook key: random per installation, so no two shops' simulators sign
    /// with one well-known secret.
    package let simulatorWebhookKey: [UInt8]

    /// The simulator's webhook secret as Standard Webhooks spells one: `whsec_` and base64.
    package var simulatorWebhookSecret: String { "whsec_" + Data(simulatorWebhookKey).base64EncodedString() }

    /// Loads the stored keys, creating any that are missing, except those the caller provides.
    ///
    /// - Throws: a validation error when a provided key is shorter than 32 bytes; a storage
    ///   error when the settings cannot be read or written.
    /// - Parameter persist: store missing keys (a normal open). When false (a read-only open
    ///   such as `db check`), missing keys are made up for this process only and nothing is
    ///   written.
    package static func loadOrCreate(
        _ database: some SQLDatabase, tokenSigningKey: [UInt8]? = nil, cursorKey: [UInt8]? = nil, persist: Bool = true
    ) async throws(KeyCatError) -> KeyCatSecrets {
        if let tokenSigningKey, tokenSigningKey.count < minimumByteCount {
            throw KeyCatError.validation("token_signing_key", "the token signing key must be at least 32 bytes")
        }
        if let cursorKey, cursorKey.count < minimumByteCount {
            throw KeyCatError.validation("cursor_key", "the cursor key must be at least 32 bytes")
        }
        // Usually the keys are there already: read them without taking the write lock, so
        // opening a database costs no write (and no fsync).
        let names = [tokenSigningKeyName, cursorKeyName, simulatorWebhookKeyName]
        let existing: [[UInt8]?] = try await storage {
            try await database.read { connection in
                try names.map { name in
                    try connection.queryOne("SELECT value FROM settings WHERE key = ?", [.text(name)]) { $0.bytes(0) }
                }
            }
        }
        var stored = existing.compactMap { $0 }
        if stored.count < names.count {
            let fresh: [[UInt8]]
            do {
                fresh = try names.map { _ in try SecureRandom.bytes(count: minimumByteCount) }
            } catch {
                throw KeyCatError(.internalError, "the random generator failed: \(error)")
            }
            if persist {
                // Another process may be creating them at the same moment: the first insert wins
                // and everyone reads back what was kept.
                stored = try await storage {
                    try await database.write { connection in
                        try zip(names, fresh).map { name, candidate in
                            try connection.run(
                                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                                [.text(name), .blob(candidate)])
                            return try connection.queryOne("SELECT value FROM settings WHERE key = ?", [.text(name)]) {
                                $0.bytes(0)
                            } ?? candidate
                        }
                    }
                }
            } else {
                stored = zip(existing, fresh).map { $0 ?? $1 }
            }
        }
        guard stored.allSatisfy({ $0.count >= minimumByteCount }) else {
            throw KeyCatError(.storage, "a stored secret in the settings table is shorter than 32 bytes")
        }
        return KeyCatSecrets(tokenSigningKey: tokenSigningKey ?? stored[0], cursorKey: cursorKey ?? stored[1],
                             simulatorWebhookKey: stored[2])
    }

    package var description: String { "KeyCatSecrets(<redacted>)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
