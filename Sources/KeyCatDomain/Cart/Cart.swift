import Foundation

/// A stored cart line: who wants how many of what.
public struct CartEntry: Sendable, Hashable {
    public var productID: ProductID
    public var quantity: Int
    public var addedAt: Date

    public init(productID: ProductID, quantity: Int, addedAt: Date) {
        self.productID = productID
        self.quantity = quantity
        self.addedAt = addedAt
    }
}

/// A cart line as the buyer sees it, with the product's current price.
public struct CartLine: Sendable, Hashable, ParcelLine {
    public var productID: ProductID
    /// The listing's seller (nil when the product is gone).
    public var sellerID: UserID?
    /// The product's title now ("" when the product is gone).
    public var title: String
    public var quantity: Int
    /// The current selling price.
    public var unitPrice: Money
    /// Unit price × quantity.
    public var lineTotal: Money
    /// The product's own delivery fee. What is charged is its parcel's: one seller's lines
    /// ship together for the highest of their fees, once (``Cart/parcels``), as checkout charges.
    public var deliveryFee: Money
    /// Units left.
    public var stock: Int
    /// Whether the line can be bought as it is: listed, not deleted, enough stock.
    public var isAvailable: Bool
}

/// A buyer's cart, priced now. Totals count available lines only, and charge delivery as
/// checkout will: per seller, the highest fee among their lines, once (``Shipment/parcels(of:including:)``).
public struct Cart: Sendable, Hashable {
    public var lines: [CartLine]
    /// The available lines grouped by seller as checkout would ship them, each with the fee it
    /// charges; positions are in ``lines``.
    public var parcels: [Shipment.Parcel]
    public var itemsTotal: Money
    /// The parcels' fees added up.
    public var deliveryTotal: Money
    public var total: Money
}

/// The cart's limits (architecture §2).
public enum CartRules {
    public static let quantityRange = 1...99
    public static let maximumLines = 50
}

/// What a cart shows of a product: enough to price a line and tell whether it can be bought.
public struct CartProductFacts: Sendable, Hashable {
    public var sellerID: UserID
    public var title: String
    public var pricing: Pricing
    public var deliveryFee: Money
    public var stock: Int
    /// False once the listing was deleted, or while its seller is withdrawn or suspended: it
    /// cannot be bought.
    public var isLive: Bool

    public init(sellerID: UserID, title: String, pricing: Pricing, deliveryFee: Money, stock: Int, isLive: Bool) {
        self.sellerID = sellerID
        self.title = title
        self.pricing = pricing
        self.deliveryFee = deliveryFee
        self.stock = stock
        self.isLive = isLive
    }

    public init(_ product: Product) {
        self.init(sellerID: product.sellerID, title: product.title, pricing: product.pricing, deliveryFee: product.delivery.fee,
                  stock: product.stock, isLive: product.deletedAt == nil && product.isListed)
    }
}

/// Where carts are kept. Implementations: `SQLCartRepository`, `InMemoryCartRepository`.
public protocol CartRepository: Sendable {
    /// The buyer's lines, oldest first.
    func entries(of userID: UserID) async throws(KeyCatError) -> [CartEntry]
    /// The buyer's lines with what they show of their products, oldest first, in one read.
    func contents(of userID: UserID) async throws(KeyCatError) -> [(entry: CartEntry, product: CartProductFacts?)]
    /// Adds `quantity` to the line (creating it), capped at `cap`.
    ///
    /// - Throws: `validation` (`field` = `cart`) when a new line would exceed `maximumLines`.
    func add(_ productID: ProductID, quantity: Int, cap: Int, for userID: UserID, maximumLines: Int, at now: Date) async throws(KeyCatError) -> CartEntry
    /// Sets the line's quantity (creating it).
    func set(_ productID: ProductID, quantity: Int, for userID: UserID, maximumLines: Int, at now: Date) async throws(KeyCatError) -> CartEntry
    /// Removes a line; false when there was none.
    @discardableResult
    func remove(_ productID: ProductID, for userID: UserID) async throws(KeyCatError) -> Bool
    func clear(_ userID: UserID) async throws(KeyCatError)
}
