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

    /// Where the order goes.
    public enum Destination: Sendable, Hashable {
        /// An entry of the buyer's address book.
        case saved(AddressID)
        /// An address given with the checkout (checked, copied to the order, not saved).
        case inline(DeliveryAddress)
    }

    public var source: Source
    /// Where it ships. Nil: the buyer's default address, or none when they keep none (an order
    /// handed over in person, as secondhand boards often are; its shipments still record how
    /// they went).
    public var destination: Destination?
    /// Replays the first answer when the request is repeated (24 hours).
    public var idempotencyKey: String?

    /// The inline address, when one was given.
    var inlineAddress: DeliveryAddress? {
        if case let .inline(address) = destination { return address }
        return nil
    }

    public init(_ source: Source, destination: Destination? = nil, idempotencyKey: String? = nil) {
        self.source = source
        self.destination = destination
        self.idempotencyKey = idempotencyKey
    }
}
