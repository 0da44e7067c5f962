import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Refresh tokens in `refresh_tokens`, grouped in `refresh_token_families` (schema version 2).
///
/// Rotation is one write transaction that reads the presented token and retires it with a
/// conditional `UPDATE … WHERE rotated_at IS NULL`: SQLite's writes run one at a time (across
/// processes too), and on Postgres the second `UPDATE` waits for the first's row lock and then
/// finds the token rotated, so of two refreshes with one token exactly one sees it live.
package struct SQLRefreshTokenRepository<Database: SQLDatabase>: RefreshTokenRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func startFamily(for user: UserID, tokenVersion: Int64, first: TokenDigest, issuedAt: Date,
                             expiresAt: Date) async throws(KeyCatError) -> Int64? {
        try await storage {
            try await database.write { connection -> Int64? in
                // The family is taken from the account's row, held for share until the family is
                // in (Postgres), and only at the version the password was checked at: a change
                // that bumps the version waits for this log-in and then revokes its family, or
                // this log-in waits for it, finds the version moved and inserts nothing. SQLite's
                // one writer runs the two one after the other. The first token goes with the
                // `COMMIT`: a new row of its own family, it waits for no one. Two round trips.
                guard let family = try connection.queryOne("""
                    INSERT INTO refresh_token_families (user_id, created_at)
                    SELECT id, ? FROM users WHERE id = ? AND token_version = ?\(connection.dialect.locking(.share))
                    RETURNING id
                    """, [StoredTime.value(issuedAt), .integer(user.rawValue), .integer(tokenVersion)], { $0.int64(0) })
                else { return nil }
                try connection.batch([.run(Self.insertTokenSQL, Self.tokenArguments(first, family: family, issuedAt: issuedAt,
                                                                                      expiresAt: expiresAt))],
                                     endingTransaction: true)
                return family
            }
        }
    }

    /// How a rotation attempt ended inside the transaction. Failures that must keep their
    /// writes (reuse detection) commit first and throw after.
    private enum Outcome: Sendable {
        case rotated(RefreshTokenRotation)
        case refused
    }

    package func rotate(_ presented: TokenDigest, to replacement: TokenDigest, at now: Date, expiresAt: Date,
                        familyLifetime: TimeInterval) async throws(KeyCatError) -> RefreshTokenRotation
    {
        let outcome: Outcome = try await storage {
            try await database.write { connection in
                // The account's version is read here too, its row share-locked on Postgres: a
                // password change (or suspension) committing after this waits, then bumps the
                // version and revokes the family; one that committed before fails this
                // serializable transaction, which runs again and finds the family revoked. The
                // pair is signed at this version only (``RefreshTokenRotation/tokenVersion``).
                guard let token = try connection.queryOne(
                    """
                    SELECT t.id, t.family_id, t.expires_at, t.rotated_at, f.revoked_at, f.user_id, f.created_at, u.token_version
                    FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id JOIN users u ON u.id = f.user_id
                    WHERE t.digest = ?\(connection.dialect.locking(.share, of: "u"))
                    """, [.blob(presented.bytes)],
                    { row in (id: row.int64(0), family: row.int64(1), expiresAt: row.int64(2),
                              rotated: !row.isNull(3), revoked: !row.isNull(4), user: row.int64(5), createdAt: row.int64(6),
                              version: row.int64(7)) })
                else { return .refused }
                guard !token.revoked else { return .refused }
                if token.rotated {
                    // Reuse: burn the family, and leave the operators a trace of what is most
                    // often a stolen token (or a client that retried a rotation it lost).
                    try Self.revokeFamily(token.family, at: now, on: connection)
                    try AuditLogTable.insert(AuditEntry(
                        actor: "system:sessions", action: "session.reuse_detected", target: "user:\(token.user)",
                        detail: "a retired refresh token of session \(token.family) was presented again: the session is revoked",
                        at: now), on: connection)
                    return .refused
                }
                let familyEnd = StoredTime.date(token.createdAt).addingTimeInterval(familyLifetime)
                guard now < familyEnd else {
                    try Self.revokeFamily(token.family, at: now, on: connection)  // its lifetime is over
                    return .refused
                }
                guard StoredTime.milliseconds(now) < token.expiresAt else { return .refused }
                let retired = try connection.run(
                    "UPDATE refresh_tokens SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL",
                    [StoredTime.value(now), .integer(token.id)])
                guard retired == 1 else { return .refused }
                let replacementExpiresAt = min(expiresAt, familyEnd)
                try Self.insertToken(replacement, family: token.family, issuedAt: now, expiresAt: replacementExpiresAt, on: connection)
                return .rotated(RefreshTokenRotation(userID: UserID(token.user), familyID: token.family, expiresAt: replacementExpiresAt,
                                                     tokenVersion: token.version))
            }
        }
        switch outcome {
        case .rotated(let rotation): return rotation
        case .refused: throw AccountService.refreshExpiredError
        }
    }

    package func revokeFamily(containing presented: TokenDigest, at: Date) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                guard let family = try connection.queryOne(
                    "SELECT family_id FROM refresh_tokens WHERE digest = ?", [.blob(presented.bytes)], { $0.int64(0) })
                else { return false }
                try Self.revokeFamily(family, at: at, on: connection)
                return true
            }
        }
    }

    package func revokeFamily(_ familyID: Int64, at: Date) async throws(KeyCatError) {
        try await storage { try await database.write { try Self.revokeFamily(familyID, at: at, on: $0) } }
    }

    package func revokeAll(for user: UserID, at: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                _ = try connection.run(
                    "UPDATE refresh_token_families SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                    [StoredTime.value(at), .integer(user.rawValue)])
            }
        }
    }

    private static func revokeFamily(_ family: Int64, at: Date, on connection: some SQLConnection) throws {
        try connection.run(
            "UPDATE refresh_token_families SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [StoredTime.value(at), .integer(family)])
    }

    private static func insertToken(
        _ digest: TokenDigest, family: Int64, issuedAt: Date, expiresAt: Date, on connection: some SQLConnection
    ) throws {
        try connection.run(insertTokenSQL, tokenArguments(digest, family: family, issuedAt: issuedAt, expiresAt: expiresAt))
    }

    private static var insertTokenSQL: String { "INSERT INTO refresh_tokens (digest, family_id, issued_at, expires_at) VALUES (?, ?, ?, ?)" }

    private static func tokenArguments(_ digest: TokenDigest, family: Int64, issuedAt: Date, expiresAt: Date) -> [SQLValue] {
        [.blob(digest.bytes), .integer(family), StoredTime.value(issuedAt), StoredTime.value(expiresAt)]
    }
}
