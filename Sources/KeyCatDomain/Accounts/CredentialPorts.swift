import Foundation

/// Hashes and checks passwords. Implementation: `PBKDF2PasswordHasher`.
///
/// The stored string describes its own algorithm and parameters, so stronger settings can be
/// rolled out while old hashes keep working (and are upgraded at the next log-in).
///
/// Hashing is slow on purpose (PBKDF2: about 150 ms of CPU), so `hash` and `verify` are `async`:
/// an implementation does the work on threads of its own, never on the caller's executor, whose
/// threads a server's other requests share.
public protocol PasswordHasher: Sendable {
    /// A new self-describing hash of `password` with a fresh random salt.
    func hash(_ password: String) async throws(KeyCatError) -> String
    /// Whether `password` matches `stored`. A malformed `stored` string never matches.
    func verify(_ password: String, against stored: String) async -> Bool
    /// Whether `stored` was made with weaker parameters than the current ones.
    func needsRehash(_ stored: String) -> Bool
}

/// Issues and verifies access tokens (JWTs). Implementation: `JWTAccessTokenCodec`.
public protocol AccessTokenCodec: Sendable {
    /// How long an access token lives.
    var lifetime: TimeInterval { get }
    /// A token for `principal` carrying the account's token version, issued at `now`.
    func issue(for principal: Principal, version: Int64, at now: Date) throws(KeyCatError) -> String
    /// What a genuine, unexpired token says.
    /// - Throws: ``KeyCatError/Code/accessTokenExpired`` for a genuine token past its expiry,
    ///   ``KeyCatError/Code/invalidToken`` for anything else wrong with it.
    func claims(of token: String, at now: Date) throws(KeyCatError) -> AccessTokenClaims
}

extension AccessTokenCodec {
    /// A token at token version 0 (a new account's).
    public func issue(for principal: Principal, at now: Date) throws(KeyCatError) -> String {
        try issue(for: principal, version: 0, at: now)
    }

    /// The principal a token speaks for, without checking its version against the account.
    public func verify(_ token: String, at now: Date) throws(KeyCatError) -> Principal {
        try claims(of: token, at: now).principal
    }
}

/// What a verified access token says: who, with which role, and at which of the account's token
/// versions it was issued. A token whose version is behind the account's was revoked.
public struct AccessTokenClaims: Sendable, Hashable {
    public let principal: Principal
    /// The account's ``User/tokenVersion`` when the token was issued.
    public let version: Int64

    public init(principal: Principal, version: Int64) {
        self.principal = principal
        self.version = version
    }
}

/// The SHA-256 digest a refresh token is stored as: the token itself is never stored.
public struct TokenDigest: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public var description: String { "TokenDigest(<redacted>)" }
}

/// Makes refresh tokens and digests them. Implementation: `RandomRefreshTokenMinter`.
public protocol RefreshTokenMinter: Sendable {
    /// A fresh random token and its digest.
    func mint() throws(KeyCatError) -> (token: String, digest: TokenDigest)
    /// The digest of a presented token, or nil when it cannot be one of ours.
    func digest(of token: String) -> TokenDigest?
}

/// What a successful rotation tells the caller.
public struct RefreshTokenRotation: Sendable, Hashable {
    public let userID: UserID
    public let familyID: Int64
    /// When the replacement expires: as asked, or earlier when its family ends first.
    public let expiresAt: Date
    /// The account's token version, read in the rotation's own transaction (nil from a store
    /// that keeps no accounts beside its tokens): a pair is signed only at it.
    public let tokenVersion: Int64?
    public init(userID: UserID, familyID: Int64, expiresAt: Date, tokenVersion: Int64? = nil) {
        self.userID = userID
        self.familyID = familyID
        self.expiresAt = expiresAt
        self.tokenVersion = tokenVersion
    }
}

/// Where refresh tokens live, grouped in families: the tokens issued by one log-in and its
/// refreshes. Implementations: `SQLRefreshTokenRepository`, `InMemoryRefreshTokenRepository`.
public protocol RefreshTokenRepository: Sendable {
    /// Starts a family for `user` (a log-in) with its first token — only while the account's
    /// token version is still `tokenVersion`, the one its credentials were checked at, in the
    /// transaction that starts it: a password change, suspension or role change that committed
    /// meanwhile has revoked every family, and must not miss one started just after.
    ///
    /// - Returns: the family, or nil when the token version moved (nothing is written).
    func startFamily(for user: UserID, tokenVersion: Int64, first: TokenDigest, issuedAt: Date,
                     expiresAt: Date) async throws(KeyCatError) -> Int64?

    /// Retires `presented` and adds `replacement` to its family, atomically. A family lives at
    /// most `familyLifetime` from its log-in however often it is rotated: the replacement
    /// expires at `expiresAt` or at the family's end, whichever is first (the rotation says
    /// which), and a token presented after the family's end is refused and the family revoked.
    ///
    /// Exactly one of any number of concurrent calls with the same token succeeds.
    /// - Throws: ``KeyCatError/Code/refreshTokenExpired`` when the token is unknown, expired, its
    ///   family revoked or past its lifetime, or already retired; in the last case the whole
    ///   family is revoked first (reuse detection) and that revocation is kept.
    func rotate(_ presented: TokenDigest, to replacement: TokenDigest, at now: Date, expiresAt: Date, familyLifetime: TimeInterval)
        async throws(KeyCatError) -> RefreshTokenRotation

    /// Revokes the family `presented` belongs to. Returns false when the token is unknown.
    func revokeFamily(containing presented: TokenDigest, at: Date) async throws(KeyCatError) -> Bool

    /// Revokes the family `familyID`.
    func revokeFamily(_ familyID: Int64, at: Date) async throws(KeyCatError)

    /// Revokes every family of `user` (withdrawal, password change).
    func revokeAll(for user: UserID, at: Date) async throws(KeyCatError)
}
