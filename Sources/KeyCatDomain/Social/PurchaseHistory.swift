/// Who may review what.
///
/// A purchase is *eligible* when the buyer holds a line of the product that was delivered in
/// its parcel and whose receipt was confirmed (구매확정), that was not refunded on its own nor
/// half its price or more by parts of its value, in an order that still holds its payment
/// (docs/social.md).
///
/// Implementations: `InMemoryPurchaseHistory` (tests) and `SQLPurchaseHistory` over either
/// store. A server may plug its own in through `KeyCat.Configuration.purchaseHistory`.
public protocol PurchaseHistory: Sendable {
    /// Whether `buyer` has an eligible purchase of `product` (see the protocol's notes).
    func hasEligiblePurchase(buyer: UserID, product: ProductID) async throws(KeyCatError) -> Bool
}
