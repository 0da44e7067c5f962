import KeyCatDomain
import KeyCatInfrastructure

/// Queries the social repositories share, run on a connection already in a transaction.
enum SocialRows {
    /// Whether the product exists and is not deleted.
    static func isLiveProduct(_ id: ProductID, on connection: some SQLConnection) throws -> Bool {
        try connection.queryOne("SELECT 1 FROM products WHERE id = ? AND deleted_at IS NULL",
                                [.integer(id.rawValue)]) { _ in true } ?? false
    }

    /// The nick of a live (not withdrawn) account, or nil.
    static func liveNick(_ id: UserID, on connection: some SQLConnection) throws -> String? {
        try connection.queryOne("SELECT nick FROM users WHERE id = ? AND withdrawn_at IS NULL",
                                [.integer(id.rawValue)]) { $0.string(0) }
    }

    /// The newest-first keyset condition `AND (created_at, id) < (?, ?)` on `table`, empty at
    /// the top of the list.
    static func keyset(_ table: String, after position: CursorPosition?) -> (condition: String, arguments: [SQLValue]) {
        guard let position else { return ("", []) }
        return (" AND (\(table).created_at, \(table).id) < (?, ?)", [.integer(position.sortKey), .integer(position.id)])
    }
}
