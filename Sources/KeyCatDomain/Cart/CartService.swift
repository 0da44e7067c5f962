import Foundation

/// The buyer's cart: add (adding up, capped at 99), set, remove, clear, and read back priced now
/// (architecture §2). At most 50 lines. A deleted or sold-out product, or one whose seller is
/// withdrawn or suspended, stays in the cart, shown as unavailable, until the buyer removes it.
public struct CartService: Sendable {
    private let carts: any CartRepository
    private let products: any ProductRepository
    private let clock: any WallClock

    public init(carts: any CartRepository, products: any ProductRepository, clock: any WallClock) {
        self.carts = carts
        self.products = products
        self.clock = clock
    }

    /// Adds `quantity` units; adding a product already in the cart adds up, capped at 99.
    ///
    /// - Throws: `validation` for a quantity outside 1–99 or a 51st line; `notFound` for a
    ///   product that does not exist, was deleted, or is unlisted with its seller.
    @discardableResult
    public func add(_ productID: ProductID, quantity: Int = 1, by principal: Principal) async throws(KeyCatError) -> Cart {
        try checkQuantity(quantity)
        try await requireListed(productID)
        _ = try await carts.add(productID, quantity: quantity, cap: CartRules.quantityRange.upperBound,
                                for: principal.userID, maximumLines: CartRules.maximumLines, at: clock.now())
        return try await cart(of: principal)
    }

    /// Sets a line's quantity (1–99), creating the line when needed.
    @discardableResult
    public func set(_ productID: ProductID, quantity: Int, by principal: Principal) async throws(KeyCatError) -> Cart {
        try checkQuantity(quantity)
        try await requireListed(productID)
        _ = try await carts.set(productID, quantity: quantity, for: principal.userID,
                                maximumLines: CartRules.maximumLines, at: clock.now())
        return try await cart(of: principal)
    }

    /// Removes a line. Removing a line that is not there is not an error.
    @discardableResult
    public func remove(_ productID: ProductID, by principal: Principal) async throws(KeyCatError) -> Cart {
        try await carts.remove(productID, for: principal.userID)
        return try await cart(of: principal)
    }

    /// Empties the cart.
    public func clear(by principal: Principal) async throws(KeyCatError) {
        try await carts.clear(principal.userID)
    }

    /// The caller's cart with current prices, line totals, delivery fees and availability.
    /// Delivery is charged as checkout charges it: the available lines of one seller form one
    /// parcel, charged the highest of their fees once, so the cart's `total` is the amount the
    /// order checkout makes of it would ask (at today's prices).
    public func cart(of principal: Principal) async throws(KeyCatError) -> Cart {
        let now = clock.now()
        let contents = try await carts.contents(of: principal.userID)
        // One pass: the items total adds up as the lines are built (no filtered copies to sum).
        var lines: [CartLine] = []
        lines.reserveCapacity(contents.count)
        var items = Money.zero
        for (entry, product) in contents {
            let price = product?.pricing.sellingPrice(at: now) ?? .zero
            let live = product?.isLive ?? false
            let stock = live ? product?.stock ?? 0 : 0
            let line = CartLine(
                productID: entry.productID, sellerID: product?.sellerID, title: product?.title ?? "", quantity: entry.quantity,
                unitPrice: price, lineTotal: try price * entry.quantity,
                deliveryFee: product?.deliveryFee ?? .zero, stock: stock,
                isAvailable: live && stock >= entry.quantity)
            if line.isAvailable { items = try items + line.lineTotal }
            lines.append(line)
        }
        let parcels = Shipment.parcels(of: lines, including: \.isAvailable)
        let delivery = try Money.sum(parcels.map(\.deliveryFee))
        return Cart(lines: lines, parcels: parcels, itemsTotal: items, deliveryTotal: delivery, total: try items + delivery)
    }

    private func checkQuantity(_ quantity: Int) throws(KeyCatError) {
        guard CartRules.quantityRange.contains(quantity) else {
            throw KeyCatError.validation("quantity", "a quantity is between 1 and 99, got \(quantity)")
        }
    }

    private func requireListed(_ productID: ProductID) async throws(KeyCatError) {
        guard let product = try await products.find(productID), product.deletedAt == nil, product.isListed else {
            throw KeyCatError.notFound("product", productID)
        }
    }
}
