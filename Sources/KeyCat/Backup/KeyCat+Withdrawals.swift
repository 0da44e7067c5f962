import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// An account's withdrawal, as a restore carries it into an older copy of the database.
    public struct Withdrawal: Sendable, Hashable {
        public var userID: UserID
        /// When the account was made: with the id, what tells it is the same person in the copy
        /// (a backup of another database, or ids handed out again since an earlier restore,
        /// could give the id to someone else).
        public var createdAt: Date
        /// When they withdrew.
        public var at: Date

        public init(userID: UserID, createdAt: Date, at: Date) {
            self.userID = userID
            self.createdAt = createdAt
            self.at = at
        }
    }

    /// What a forced restore read of the withdrawals in the database it replaces.
    public enum ReplacedWithdrawals: Sendable, Hashable {
        /// Nothing was replaced: no `force`, no database there, or one KeyCat never initialised.
        case none
        case read([Withdrawal])
        /// The database being replaced could not be read (a damaged file is often why a shop
        /// restores): whoever withdrew since the backup must be withdrawn again by hand.
        case unreadable(String)
    }

    /// What ``carryForward(_:by:)`` did.
    public struct CarriedWithdrawals: Sendable, Hashable {
        /// The accounts withdrawn again here, their personal data erased as their withdrawal
        /// erased it.
        public var carried: [UserID] = []
        /// The accounts this database still holds that could not be withdrawn again, each with
        /// why: a seller who, in this older copy, has parcels to see through or owes the shop.
        /// An operator sees those through, then asks again.
        public var refused: [Refusal] = []

        public struct Refusal: Sendable, Hashable {
            public var userID: UserID
            public var reason: String
        }
    }

    /// Every account withdrawn in this database, oldest withdrawal first: what a restore of an
    /// older backup over it must not bring back (``carryForward(_:by:)``). Read from the
    /// database about to be replaced, before the restore.
    public func withdrawals() async throws(KeyCatError) -> [Withdrawal] {
        try await storage { try await Self.withdrawals(in: store.database) }
    }

    private static func withdrawals(in database: some SQLDatabase) async throws -> [Withdrawal] {
        try await database.read { try withdrawals(on: $0) }
    }

    /// The withdrawals on `connection`, for a restore that reads them on a session of its own.
    static func withdrawals(on connection: some SQLConnection) throws -> [Withdrawal] {
        try connection.query("SELECT id, created_at, withdrawn_at FROM users WHERE withdrawn_at IS NOT NULL ORDER BY withdrawn_at, id", []) {
            Withdrawal(userID: UserID($0.int64(0)), createdAt: Date(millisecondsSince1970: $0.int64(1)),
                       at: Date(millisecondsSince1970: $0.int64(2)))
        }
    }

    /// Withdraws again each of `withdrawals` (read from the database a restore replaced) that
    /// this restored copy holds as an account not withdrawn, as their own withdrawal did: the
    /// account erased, its addresses, cart, bookmarks and follows, its listings if a seller,
    /// `user.withdrawn` sent to the webhooks again, `user.withdraw` audited by `principal` (the
    /// detail says it was carried forward). A person who asked to be erased is not brought back
    /// by a restore (개인정보 보호법 §21, 파기). Accounts the copy does not hold (made after the
    /// backup), an id held here by an account made at another time (another person), and those
    /// withdrawn in it already are left alone, so asking twice changes nothing. An account that
    /// cannot be withdrawn is refused on its own, with why; the rest go on.
    ///
    /// - Throws: `forbidden` for anyone but an operator; `storage` when the database fails.
    public func carryForward(_ withdrawals: [Withdrawal], by principal: Principal) async throws(KeyCatError) -> CarriedWithdrawals {
        try principal.require(.admin, to: "carry withdrawals into a restored database")
        let (actor, now) = (principal.auditActor, configuration.clock.now())
        return try await Self.carry(withdrawals, in: store.database) { withdrawal in
            AuditEntry(actor: actor, action: "user.withdraw", target: "user:\(withdrawal.userID)",
                       detail: "carried into the restored database: withdrew \(withdrawal.at.formatted(.iso8601))", at: now)
        }
    }

    private static func carry(_ withdrawals: [Withdrawal], in database: some SQLDatabase,
                              audit: (Withdrawal) -> AuditEntry) async throws(KeyCatError) -> CarriedWithdrawals {
        let users = SQLUserRepository(database: database)
        var outcome = CarriedWithdrawals()
        for withdrawal in withdrawals {
            do {
                let made = try await storage {
                    try await database.read { connection in
                        try connection.queryOne("SELECT created_at FROM users WHERE id = ?", [.integer(withdrawal.userID.rawValue)]) {
                            $0.int64(0)
                        }
                    }
                }
                guard made == withdrawal.createdAt.millisecondsSince1970 else { continue }
                if try await users.withdraw(withdrawal.userID, at: withdrawal.at, audit: audit(withdrawal)) {
                    outcome.carried.append(withdrawal.userID)
                }
            } catch {
                outcome.refused.append(.init(userID: withdrawal.userID, reason: error.message))
            }
        }
        return outcome
    }
}
