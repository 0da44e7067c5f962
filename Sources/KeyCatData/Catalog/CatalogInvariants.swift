import KeyCatInfrastructure

/// The catalog's invariant that `db check` proves: a listing is listed only while it is live and
/// its seller may sell — a seller, neither suspended nor withdrawn. Suspension, withdrawal and a
/// change of role take a seller's listings out in the statement that changes the account, and
/// reinstatement or a return to selling brings back only what that rule allows; a listing
/// listed beside an account that cannot ship it is one buyers could pay for and never receive.
///
/// Such a listing is the operators' to take out (`products delete`, which keeps the orders'
/// copies), or to bring back under a seller who may sell. It refuses no backup's restore (databases from before
/// 2026-12-01 may hold some: a seller made a buyer, then suspended and reinstated), as the search
/// index does not (``isListingProblem(_:)``).
package enum CatalogInvariants {
    static func problems(on connection: some SQLConnection) throws -> [String] {
        // A database from before listings could be taken out, or accounts suspended, has nothing to check.
        guard try connection.hasColumn("listed", of: "products"), try connection.hasColumn("suspended_at", of: "users"),
              try connection.hasColumn("withdrawn_at", of: "users") else { return [] }
        return try connection.query("""
            SELECT p.id, p.seller_id FROM products p JOIN users u ON u.id = p.seller_id
            WHERE p.listed = 1 AND (p.deleted_at IS NOT NULL OR u.role <> 'seller' OR u.suspended_at IS NOT NULL OR u.withdrawn_at IS NOT NULL)
            ORDER BY p.id
            """, []) { "product \($0.int64(0)) is listed, but it was deleted or its seller (user \($0.int64(1))) may not sell" + remedy }
    }

    private static let remedy = "; `products delete` takes it out"

    /// Whether `sentence`, one of `db check`'s invariant problems, is one of these.
    package static func isListingProblem(_ sentence: String) -> Bool { sentence.hasSuffix(remedy) }
}
