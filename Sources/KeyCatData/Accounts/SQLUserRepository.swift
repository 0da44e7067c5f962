import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Accounts in the `users` table (schema version 2).
package struct SQLUserRepository<Database: SQLDatabase>: UserRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    static var columns: String {
        "id, email, nick, phone, birthday, profile_image, role, created_at, updated_at, withdrawn_at, suspended_at, token_version"
    }

    package func insert(_ user: NewUser, audit: (@Sendable (User) -> AuditEntry)?) async throws(KeyCatError) -> User {
        try await storage {
            try await database.write { connection in
                let id = try connection.insertReturningID(
                    """
                    INSERT INTO users (email, nick, password_hash, phone, birthday, role, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text(user.email), .text(user.nick), .text(user.passwordHash),
                     .optional(user.phone.map(SQLValue.text)), .optional(user.birthday.map { .text($0.description) }),
                     .text(user.role.rawValue), StoredTime.value(user.createdAt), StoredTime.value(user.createdAt)])
                let stored = User(
                    id: UserID(id), email: user.email, nick: user.nick, phone: user.phone,
                    birthday: user.birthday, role: user.role, createdAt: user.createdAt, updatedAt: user.createdAt)
                if let audit { try AuditLogTable.insert(audit(stored), on: connection) }
                return stored
            }
        }
    }

    package func find(_ id: UserID) async throws(KeyCatError) -> User? {
        try await storage {
            try await database.read { try Self.find(id, on: $0) }
        }
    }

    /// Reads one account on a connection already in a transaction.
    static func find(_ id: UserID, on connection: some SQLConnection) throws -> User? {
        try connection.queryOne("SELECT \(columns) FROM users WHERE id = ?", [.integer(id.rawValue)], decode)
    }

    package func credentials(forEmail email: String) async throws(KeyCatError) -> UserCredentials? {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT \(Self.columns), password_hash FROM users WHERE email = ? AND withdrawn_at IS NULL",
                    [.text(email)]
                ) { row in UserCredentials(user: try Self.decode(row), passwordHash: row.string(12)) }
            }
        }
    }

    package func updatePasswordHash(_ id: UserID, from old: String, to hash: String, at: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                _ = try connection.run(
                    "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND password_hash = ?",
                    [.text(hash), StoredTime.value(at), .integer(id.rawValue), .text(old)])
            }
        }
    }

    package func updateProfile(_ user: User) async throws(KeyCatError) -> User {
        let changed = try await storage {
            try await database.write { connection in
                try connection.run(
                    """
                    UPDATE users SET nick = ?, phone = ?, birthday = ?, profile_image = ?, updated_at = ?
                    WHERE id = ? AND withdrawn_at IS NULL
                    """,
                    [.text(user.nick), .optional(user.phone.map(SQLValue.text)),
                     .optional(user.birthday.map { .text($0.description) }),
                     .optional(user.profileImage.map(SQLValue.text)), StoredTime.value(user.updatedAt),
                     .integer(user.id.rawValue)])
            }
        }
        guard changed == 1 else { throw KeyCatError.notFound("user", user.id) }
        return user
    }

    /// Withdraws the account in one transaction with everything that goes with it: its token
    /// version is bumped, what identified the person (email, nick, phone, birthday, profile image,
    /// password hash) gives way to ``AccountRules/withdrawnEmail(_:)`` and
    /// ``AccountRules/withdrawnNick``, its refresh token families are revoked and its listings leave every list
    /// (they stay readable for the orders that reference them). Their address book goes, and the
    /// addresses on their orders with nothing left to deliver are anonymised
    /// (``SQLFulfilmentRepository/anonymise(_:at:on:)``); an order still on its way keeps its
    /// address until it arrives. A seller with parcels still theirs to see through — of paid
    /// orders to ship or deliver, of orders whose reservation (or its late payment's grace) may still be paid, delivered but
    /// not yet confirmed (a return may still be asked for) — or returns to decide, is refused:
    /// their buyers would be left with nobody to send their goods or answer them.
    ///
    /// `READ COMMITTED` on Postgres, the account's row updated first: a listing's write that
    /// locked it for share commits before, and each later statement sees it (under a
    /// serializable snapshot taken before the wait, the listing would stay on sale); a listing's
    /// write after it waits, then finds the seller gone.
    package func withdraw(_ id: UserID, at: Date, audit: AuditEntry) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                let changed = try connection.run(
                    """
                    UPDATE users SET withdrawn_at = ?, updated_at = ?, token_version = token_version + 1,
                                     email = ?, nick = ?, password_hash = '!', phone = NULL, birthday = NULL, profile_image = NULL
                    WHERE id = ? AND withdrawn_at IS NULL
                    """,
                    [StoredTime.value(at), StoredTime.value(at), .text(AccountRules.withdrawnEmail(id)),
                     .text(AccountRules.withdrawnNick), .integer(id.rawValue)])
                guard changed == 1 else { return false }
                let open = try connection.queryOne("""
                    SELECT (SELECT count(*) FROM shipments s JOIN orders o ON o.id = s.order_id
                            WHERE s.seller_id = ?
                              AND (s.status IN ('pending', 'shipped') AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded')
                                   OR s.status = 'delivered' AND s.confirmed_at IS NULL
                                      AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded')
                                   OR o.status = 'awaiting_payment' AND o.expires_at > ?)),
                           (SELECT count(*) FROM return_requests WHERE seller_id = ? AND status IN ('requested', 'disputed'))
                    """, [.integer(id.rawValue), StoredTime.value(at.addingTimeInterval(-CheckoutService.latePaymentGrace)),
                          .integer(id.rawValue)]) {
                    (parcels: $0.int(0), returns: $0.int(1))
                } ?? (parcels: 0, returns: 0)
                guard open.parcels == 0, open.returns == 0 else {
                    throw KeyCatError(.illegalTransition, "\(open.parcels) parcel(s) to ship, deliver or see confirmed and \(open.returns) "
                        + "return(s) to decide are this seller's: see them through (or ask an operator to) before withdrawing",
                        context: ["parcels": String(open.parcels), "returns": String(open.returns)])
                }
                // What they owe the shop: a debt their last settlement carried, or refunds not
                // settled yet beyond their sales not settled yet (a paid-out sale refunded since).
                let owed = try connection.queryOne("""
                    SELECT (SELECT carried_forward FROM settlements WHERE seller_id = ? ORDER BY period DESC, id DESC LIMIT 1),
                           (SELECT sum(CASE WHEN kind = 'sale' THEN -amount ELSE amount END) FROM settlement_entries
                            WHERE seller_id = ? AND settlement_id IS NULL)
                    """, [.integer(id.rawValue), .integer(id.rawValue)]) { max(0, $0.optionalInt64(0) ?? 0) + max(0, $0.optionalInt64(1) ?? 0) } ?? 0
                guard owed == 0 else {
                    throw KeyCatError(.illegalTransition, "this seller owes the shop \(Money(won: owed)) (refunds of sales already paid "
                        + "out): an operator settles it before they withdraw", context: ["owed": String(owed)])
                }
                try connection.run(
                    "UPDATE refresh_token_families SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                    [StoredTime.value(at), .integer(id.rawValue)])
                try EventOutbox.append(DomainEvent(.userWithdrawn, at: at, aggregate: EventAggregate(.user, id.rawValue), data: [
                    "user_id": .integer(id.rawValue),
                ]), on: connection)
                try AuditLogTable.insert(audit, on: connection)
                try SQLSellerApplicationRepository<Database>.closePending(of: id, at: at, by: audit.actor, on: connection)
                try SQLProductRepository<Database>.deleteListings(of: id, at: at, on: connection)
                try connection.run("DELETE FROM addresses WHERE user_id = ?", [.integer(id.rawValue)])
                try Self.eraseKeepings(of: id, on: connection)
                try SQLFulfilmentRepository<Database>.anonymise(
                    "o.buyer_id = ? AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.status IN ('pending', 'shipped') AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded'))",
                    [.integer(id.rawValue)], at: at, on: connection)
                return true
            }
        }
    }

    /// Erases what a withdrawing person kept here: their cart, their bookmarks and the accounts
    /// they follow, the counts those moved moved back (a listing's bookmarks, which rank it; a
    /// seller's followers). Others' follows of them stay, shown withdrawn, as those are the
    /// others' own lists. Until 2026-12-01 all three stayed: a withdrawn account's bookmarks kept
    /// lifting listings in the popular sort and relevance, and its cart was kept for ever.
    ///
    /// On Postgres the counted rows are locked in id order first, as a toggle locks them
    /// (``SQLToggleTable``), so a toggle racing the withdrawal waits rather than deadlocks.
    private static func eraseKeepings(of id: UserID, on connection: Database.Connection) throws {
        let user = SQLValue.integer(id.rawValue)
        let lock = connection.dialect.locking(.noKeyUpdate)
        try connection.batch([
            .run("DELETE FROM cart_lines WHERE user_id = ?", [user]),
            .run("""
                UPDATE products SET bookmark_count = bookmark_count - 1 WHERE id IN (
                    SELECT id FROM products WHERE id IN (SELECT product_id FROM bookmarks WHERE user_id = ?) ORDER BY id\(lock))
                """, [user]),
            .run("DELETE FROM bookmarks WHERE user_id = ?", [user]),
            .run("""
                UPDATE users SET follower_count = follower_count - 1 WHERE id IN (
                    SELECT id FROM users WHERE id IN (SELECT followee_id FROM follows WHERE follower_id = ?) ORDER BY id\(lock))
                """, [user]),
            .run("DELETE FROM follows WHERE follower_id = ?", [user]),
            .run("UPDATE users SET following_count = 0 WHERE id = ?", [user]),
        ])
    }

    package func tokenVersion(of id: UserID) async throws(KeyCatError) -> Int64? {
        try await storage {
            try await database.read { connection in
                try connection.queryOne("SELECT token_version FROM users WHERE id = ?", [.integer(id.rawValue)]) { $0.int64(0) }
            }
        }
    }

    package func changeAccess(_ id: UserID, _ change: AccessChange, at: Date, audit: AuditEntry?) async throws(KeyCatError) -> User? {
        let (assignment, condition, arguments): (String, String, [SQLValue]) = switch change {
        case .suspend: ("suspended_at = ?, token_version = token_version + 1", "AND suspended_at IS NULL", [StoredTime.value(at)])
        case .reinstate: ("suspended_at = NULL", "AND suspended_at IS NOT NULL", [])
        case let .role(role): ("role = ?, token_version = token_version + 1", "", [.text(role.rawValue)])
        case let .password(hash): ("password_hash = ?, token_version = token_version + 1", "", [.text(hash)])
        }
        // `READ COMMITTED` on Postgres, for the reason ``withdraw(_:at:audit:)`` gives: the listings a
        // suspension or demotion takes out include one whose write held the account's row.
        return try await storage {
            try await database.write(isolation: .readCommitted) { connection -> User? in
                let changed = try connection.run(
                    "UPDATE users SET \(assignment), updated_at = ? WHERE id = ? AND withdrawn_at IS NULL \(condition)",
                    arguments + [StoredTime.value(at), .integer(id.rawValue)])
                guard changed == 1, let user = try Self.find(id, on: connection) else { return nil }
                switch change {
                case .suspend, .password:
                    try connection.run(
                        "UPDATE refresh_token_families SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                        [StoredTime.value(at), .integer(id.rawValue)])
                case .reinstate, .role:
                    break
                }
                // A suspended seller's listings leave the catalog with them and come back with
                // them (the deleted ones stay out), as do a seller's made a buyer or an admin:
                // nobody could ship what was bought of them. Writing `products` is also what tells
                // every cache of catalog answers, on both stores, that they changed.
                switch change {
                case .suspend:
                    try EventOutbox.append(DomainEvent(.userSuspended, at: at, aggregate: EventAggregate(.user, id.rawValue), data: [
                        "user_id": .integer(id.rawValue),
                    ]), on: connection)
                    try Self.list(listingsOf: id, false, on: connection)
                case .reinstate:
                    // Reinstated as a buyer or an admin (made one while suspended), they bring
                    // none back: their listings came out when they stopped being a seller.
                    if user.role == .seller { try Self.list(listingsOf: id, true, on: connection) }
                case let .role(role):
                    // Made a seller again while suspended, they stay out until reinstated.
                    try Self.list(listingsOf: id, role == .seller && !user.isSuspended, on: connection)
                case .password:
                    break
                }
                if let audit { try AuditLogTable.insert(audit, on: connection) }
                return user
            }
        }
    }

    /// Takes a seller's listings out of every list (`listed` false) or brings the live ones back,
    /// with the vocabulary's counts of their words (``SearchIndex/recount(listingsOf:listed:on:)``).
    /// The listings are locked first, in id order, as a batch of the search index locks its
    /// listings, so the two wait for each other in one order (on SQLite the lock clause is
    /// empty: its one writer runs them one after another).
    private static func list(listingsOf id: UserID, _ listed: Bool, on connection: Database.Connection) throws {
        let condition = listed ? "listed = 0 AND deleted_at IS NULL" : "listed = 1"
        try connection.run("""
            UPDATE products SET listed = ? WHERE id IN (
                SELECT id FROM products WHERE seller_id = ? AND \(condition) ORDER BY id\(connection.dialect.locking(.noKeyUpdate)))
            """, [.bool(listed), .integer(id.rawValue)])
        try SearchIndex.recount(listingsOf: id, listed: listed, on: connection)
    }

    /// In id order by the primary key. A nick term is matched with `LIKE` against the nick with
    /// its ASCII letters lowercased (``SQLDialect/asciiLowercased(_:)``), its own `%`, `_` and
    /// `\` escaped, so both stores match exactly what the in-memory store does.
    package func list(nickContaining term: String?, after: UserID?, limit: Int) async throws(KeyCatError) -> [User] {
        try await storage {
            try await database.read { connection in
                var sql = "SELECT \(Self.columns) FROM users WHERE id > ?"
                var arguments: [SQLValue] = [.integer(after?.rawValue ?? 0)]
                if let term {
                    sql += " AND \(connection.dialect.asciiLowercased("nick")) LIKE ? ESCAPE '\\'"
                    arguments.append(.text("%" + SearchListQuery.escapeLike(term) + "%"))
                }
                return try connection.query(sql + " ORDER BY id LIMIT ?", arguments + [.int(limit)], Self.decode)
            }
        }
    }

    static func decode(_ row: some SQLRow) throws -> User {
        User(
            id: UserID(row.int64(0)), email: row.string(1), nick: row.string(2), phone: row.optionalString(3),
            birthday: try row.optionalString(4).map { try CalendarDate(iso8601: $0, field: "birthday") },
            profileImage: row.optionalString(5), role: Role(rawValue: row.string(6)) ?? .buyer,
            createdAt: StoredTime.date(row.int64(7)), updatedAt: StoredTime.date(row.int64(8)),
            withdrawnAt: StoredTime.date(row.optionalInt64(9)), suspendedAt: StoredTime.date(row.optionalInt64(10)),
            tokenVersion: row.int64(11))
    }
}
