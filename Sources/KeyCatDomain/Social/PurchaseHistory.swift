/// The port reviews ask whether a buyer bought a product (architecture §2: "only from a buyer with a
/// paid order of that product").
///
/// A purchase is *eligible* when the buyer has at least one order containing the product whose
/// status is `paid`, `shipped`, `delivered` or `partiallyRefunded`. Orders that are awaiting
/// payment, expired, cancelled, failed or fully `refunded` do not count.
///
/// Implementations: `InMemoryPurchaseHistory` (tests) and, once the orders tables exist, one
/// over SQLite (see `KeyCat+PurchaseHistory.swift`). A server may plug its own in through
/// `KeyCat.Configuration.purchaseHistory`.
public protocol PurchaseHistory: Sendable {
    /// Whether `buyer` has an eligible order of `product`: delivered, and not cancelled nor
    /// fully refunded since (a partial refund keeps it).
    func hasEligiblePurchase(buyer: UserID, product: ProductID) async throws(KeyCatError) -> Bool
}
