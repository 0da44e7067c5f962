/// One product and how many units of it to buy.
public struct CheckoutItem: Sendable, Hashable, Codable {
    public var productID: ProductID
    public var quantity: Int

    public init(productID: ProductID, quantity: Int) {
        self.productID = productID
        self.quantity = quantity
    }
}

/// What to check out.
public struct CheckoutRequest: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// Every line of the buyer's cart (lines stay in the cart until the order is paid).
        case cart
        /// These lines ("buy now"); a product named twice counts once with the quantities added.
        case items([CheckoutItem])
    }

    public var source: Source
    /// Replays the first answer when the request is repeated (24 hours).
    public var idempotencyKey: String?

    public init(_ source: Source, idempotencyKey: String? = nil) {
        self.source = source
        self.idempotencyKey = idempotencyKey
    }
}
