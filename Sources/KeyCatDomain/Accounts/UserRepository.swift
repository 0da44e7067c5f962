import Foundation

/// Where accounts are kept. Implementations: `SQLiteUserRepository`, `InMemoryUserRepository`.
public protocol UserRepository: Sendable {
    /// Stores a new account. When `audit` is given, the entry it makes for the stored user is
    /// recorded in the same transaction (an operator creating an account).
    /// - Throws: ``KeyCatError/Code/duplicate`` when a live account already has the email.
    func insert(_ user: NewUser, audit: (@Sendable (User) -> AuditEntry)?) throws(KeyCatError) -> User

    /// The account with `id`, withdrawn or not, or nil.
    func find(_ id: UserID) throws(KeyCatError) -> User?

    /// The live account with `email` (already case-folded) and its password hash, or nil.
    func credentials(forEmail email: String) throws(KeyCatError) -> UserCredentials?

    /// Replaces the stored password hash (rehash on log-in, password change).
    func updatePasswordHash(_ id: UserID, to hash: String, at: Date) throws(KeyCatError)

    /// Writes a changed profile (nick, phone, birthday, image) of a live account.
    /// - Throws: ``KeyCatError/Code/notFound`` when the account is missing or withdrawn.
    func updateProfile(_ user: User) throws(KeyCatError) -> User

    /// Marks a live account withdrawn at `at`. Returns false when it was not live.
    func withdraw(_ id: UserID, at: Date) throws(KeyCatError) -> Bool

    /// Accounts in id order, after `after` (exclusive), at most `limit`.
    func list(after: UserID?, limit: Int) throws(KeyCatError) -> [User]
}
