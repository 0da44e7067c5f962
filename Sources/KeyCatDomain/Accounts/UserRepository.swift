import Foundation

/// Where accounts are kept. Implementations: `SQLUserRepository`, `InMemoryUserRepository`.
public protocol UserRepository: Sendable {
    /// Stores a new account. When `audit` is given, the entry it makes for the stored user is
    /// recorded in the same transaction (an operator creating an account).
    /// - Throws: ``KeyCatError/Code/duplicate`` when a live account already has the email.
    func insert(_ user: NewUser, audit: (@Sendable (User) -> AuditEntry)?) async throws(KeyCatError) -> User

    /// The account with `id`, withdrawn or not, or nil.
    func find(_ id: UserID) async throws(KeyCatError) -> User?

    /// The live account with `email` (already case-folded) and its password hash, or nil.
    func credentials(forEmail email: String) async throws(KeyCatError) -> UserCredentials?

    /// Replaces the stored password hash `old` with `hash` (a rehash on log-in, the same
    /// password under new parameters); nothing when the hash is no longer `old` (the password
    /// changed meanwhile, which the rehash must not undo).
    func updatePasswordHash(_ id: UserID, from old: String, to hash: String, at: Date) async throws(KeyCatError)

    /// Writes a changed profile (nick, phone, birthday, image) of a live account.
    /// - Throws: ``KeyCatError/Code/notFound`` when the account is missing or withdrawn.
    func updateProfile(_ user: User) async throws(KeyCatError) -> User

    /// Marks a live account withdrawn at `at`, bumps its token version and replaces what
    /// identified the person: email and nick by ``AccountRules/withdrawnEmail(_:)`` and
    /// ``AccountRules/withdrawnNick``, the password hash by one nothing verifies against, phone,
    /// birthday and profile image by nothing; erases their addresses, cart, bookmarks and the
    /// accounts they follow, moving the counts back; deletes their listings. Records `audit` and
    /// a `user.withdrawn` event in the same transaction. Returns false when it was not live.
    func withdraw(_ id: UserID, at: Date, audit: AuditEntry) async throws(KeyCatError) -> Bool

    /// The account's current token version, withdrawn or not; nil when there is no such account.
    func tokenVersion(of id: UserID) async throws(KeyCatError) -> Int64?

    /// Applies `change` to a live account at `at`, in one transaction with `audit` when given.
    /// Every change but ``AccessChange/reinstate`` bumps the token version; a suspension and a
    /// new password also revoke every refresh token family.
    ///
    /// - Returns: the changed account, or nil when it is missing, withdrawn, or not in the state
    ///   the change needs (suspending a suspended account, reinstating one that is not).
    func changeAccess(_ id: UserID, _ change: AccessChange, at: Date, audit: AuditEntry?) async throws(KeyCatError) -> User?

    /// Accounts in id order, after `after` (exclusive), at most `limit`; with `nickContaining`
    /// (a term from ``AccountRules/nickSearchTerm(_:)``), only those whose nick, its ASCII
    /// letters lowercased, contains it.
    func list(nickContaining: String?, after: UserID?, limit: Int) async throws(KeyCatError) -> [User]
}

extension UserRepository {
    /// Every account in id order, after `after` (exclusive), at most `limit`.
    public func list(after: UserID?, limit: Int) async throws(KeyCatError) -> [User] {
        try await list(nickContaining: nil, after: after, limit: limit)
    }
}

/// A change to who may use an account and how: what ``UserRepository/changeAccess(_:_:at:audit:)``
/// applies. Its description hides a password hash.
public enum AccessChange: Sendable, Hashable, CustomStringConvertible {
    /// Stop the account: no log-in, no refresh, tokens revoked.
    case suspend
    /// Lift a suspension.
    case reinstate
    /// Give the account another role.
    case role(Role)
    /// Replace the password hash (the owner's change or an operator's reset).
    case password(hash: String)

    public var description: String {
        switch self {
        case .suspend: "suspend"
        case .reinstate: "reinstate"
        case let .role(role): "role(\(role.rawValue))"
        case .password: "password(<redacted>)"
        }
    }
}
