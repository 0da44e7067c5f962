import Foundation
import KeyCatDomain
import Synchronization

/// Accounts in memory, for tests of the use cases without a file. Behaves as
/// ``SQLUserRepository`` does, live-email uniqueness included.
package final class InMemoryUserRepository: UserRepository {
    private struct Row {
        var user: User
        var passwordHash: String
    }

    private struct State {
        var rows: [UserID: Row] = [:]
        var audit: [AuditEntry] = []
        var nextID: Int64 = 1
    }

    private let state = Mutex(State())
    /// Told of each withdrawal after it is made: what other in-memory stores do in the
    /// withdrawal's transaction in SQL (``InMemorySellerApplicationRepository`` closes the
    /// person's pending application).
    private let withdrawalObservers = Mutex<[@Sendable (UserID, Date, String) -> Void]>([])

    package init() {}

    /// Calls `observer` with the account, time and actor of each withdrawal from now on.
    package func observeWithdrawals(_ observer: @escaping @Sendable (UserID, Date, String) -> Void) {
        withdrawalObservers.withLock { $0.append(observer) }
    }

    /// The audit entries operator-created accounts recorded, oldest first.
    package var auditEntries: [AuditEntry] { state.withLock { $0.audit } }

    package func insert(_ user: NewUser, audit: (@Sendable (User) -> AuditEntry)?) throws(KeyCatError) -> User {
        try state.withLock { state throws(KeyCatError) -> User in
            guard !state.rows.values.contains(where: { $0.user.email == user.email && $0.user.isActive }) else {
                throw KeyCatError(.duplicate, "it already exists")
            }
            let stored = User(
                id: UserID(state.nextID), email: user.email, nick: user.nick, phone: user.phone,
                birthday: user.birthday, role: user.role, createdAt: user.createdAt, updatedAt: user.createdAt)
            state.nextID += 1
            state.rows[stored.id] = Row(user: stored, passwordHash: user.passwordHash)
            if let audit { state.audit.append(audit(stored)) }
            return stored
        }
    }

    package func find(_ id: UserID) throws(KeyCatError) -> User? {
        state.withLock { $0.rows[id]?.user }
    }

    package func credentials(forEmail email: String) throws(KeyCatError) -> UserCredentials? {
        state.withLock { state in
            state.rows.values.first { $0.user.email == email && $0.user.isActive }
                .map { UserCredentials(user: $0.user, passwordHash: $0.passwordHash) }
        }
    }

    package func updatePasswordHash(_ id: UserID, from old: String, to hash: String, at: Date) throws(KeyCatError) {
        state.withLock { state in
            guard state.rows[id]?.passwordHash == old else { return }
            state.rows[id]?.passwordHash = hash
            state.rows[id]?.user.updatedAt = at
        }
    }

    package func updateProfile(_ user: User) throws(KeyCatError) -> User {
        try state.withLock { state throws(KeyCatError) -> User in
            guard var row = state.rows[user.id], row.user.isActive else { throw KeyCatError.notFound("user", user.id) }
            row.user.nick = user.nick
            row.user.phone = user.phone
            row.user.birthday = user.birthday
            row.user.profileImage = user.profileImage
            row.user.updatedAt = user.updatedAt
            state.rows[user.id] = row
            return row.user
        }
    }

    package func withdraw(_ id: UserID, at: Date, audit: AuditEntry) throws(KeyCatError) -> Bool {
        let withdrew = state.withLock { state in
            guard var row = state.rows[id], row.user.isActive else { return false }
            row.user.withdrawnAt = at
            row.user.updatedAt = at
            row.user.tokenVersion += 1
            row.user.email = AccountRules.withdrawnEmail(id)
            row.user.nick = AccountRules.withdrawnNick
            (row.user.phone, row.user.birthday, row.user.profileImage) = (nil, nil, nil)
            row.passwordHash = "!"
            state.rows[id] = row
            return true
        }
        if withdrew { for observer in withdrawalObservers.withLock({ $0 }) { observer(id, at, audit.actor) } }
        return withdrew
    }

    package func tokenVersion(of id: UserID) throws(KeyCatError) -> Int64? {
        state.withLock { $0.rows[id]?.user.tokenVersion }
    }

    package func changeAccess(_ id: UserID, _ change: AccessChange, at: Date, audit: AuditEntry?) throws(KeyCatError) -> User? {
        state.withLock { state -> User? in
            guard var row = state.rows[id], row.user.isActive else { return nil }
            switch change {
            case .suspend:
                guard !row.user.isSuspended else { return nil }
                row.user.suspendedAt = at
                row.user.tokenVersion += 1
            case .reinstate:
                guard row.user.isSuspended else { return nil }
                row.user.suspendedAt = nil
            case let .role(role):
                row.user.role = role
                row.user.tokenVersion += 1
            case let .password(hash):
                row.passwordHash = hash
                row.user.tokenVersion += 1
            }
            row.user.updatedAt = at
            state.rows[id] = row
            if let audit { state.audit.append(audit) }
            return row.user
        }
    }

    package func list(nickContaining term: String?, after: UserID?, limit: Int) throws(KeyCatError) -> [User] {
        state.withLock { state in
            Array(state.rows.values.map(\.user)
                .filter { $0.id > (after ?? UserID(0)) }
                .filter { user in term.map { AccountRules.asciiLowercased(user.nick).contains($0) } ?? true }
                .sorted { $0.id < $1.id }.prefix(limit))
        }
    }

    /// Changes a role directly, as an approved seller application does (bumping the token version).
    package func setRole(_ id: UserID, to role: Role) {
        state.withLock { state in
            state.rows[id]?.user.role = role
            state.rows[id]?.user.tokenVersion += 1
        }
    }
}
