import KeyCatDomain
import KeyCatInfrastructure

/// Queries the social repositories share, run on a connection already in a transaction.
enum SocialRows {
    /// Whether the product exists and is not deleted, its row locked with `lock` until the
    /// transaction ends, so that under `READ COMMITTED` the answer holds until the commit: no one
    /// can delete the product meanwhile.
    static func isLiveProduct(_ id: ProductID, locking lock: SQLDialect.RowLock,
                              on connection: some SQLConnection) throws -> Bool {
        try connection.queryOne(liveProductSQL(locking: lock, in: connection.dialect), [.integer(id.rawValue)]) { _ in true }
            ?? false
    }

    /// The nick of a live (not withdrawn) account, or nil; its row locked with `lock`, as
    /// ``isLiveProduct(_:locking:on:)``'s.
    static func liveNick(_ id: UserID, locking lock: SQLDialect.RowLock, on connection: some SQLConnection) throws -> String? {
        try connection.queryOne(liveUserSQL(locking: lock, in: connection.dialect), [.integer(id.rawValue)]) { $0.string(0) }
    }

    /// A query of one product id that returns a row when the product is live, locked with `lock`
    /// (`nil`: a row the transaction has locked already).
    static func liveProductSQL(locking lock: SQLDialect.RowLock?, in dialect: SQLDialect) -> String {
        "SELECT 1 FROM products WHERE id = ? AND deleted_at IS NULL" + (lock.map(dialect.locking) ?? "")
    }

    /// A query of one user id that returns the account's nick when it is live, locked with
    /// `lock` (`nil`: a row the transaction has locked already).
    static func liveUserSQL(locking lock: SQLDialect.RowLock?, in dialect: SQLDialect) -> String {
        "SELECT nick FROM users WHERE id = ? AND withdrawn_at IS NULL" + (lock.map(dialect.locking) ?? "")
    }

    /// The newest-first keyset condition `AND (created_at, id) < (?, ?)` on `table`, empty at
    /// the top of the list.
    static func keyset(_ table: String, after position: CursorPosition?) -> (condition: String, arguments: [SQLValue]) {
        guard let position else { return ("", []) }
        return (" AND (\(table).created_at, \(table).id) < (?, ?)", [.integer(position.sortKey), .integer(position.id)])
    }
}
