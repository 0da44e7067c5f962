import Foundation

/// How much stock one buyer may hold without paying: checkout takes the units at once, so without
/// bounds one buyer's unpaid orders could hold a product's whole stock until the reservations end.
///
/// The caps count a buyer's **open** orders — awaiting payment, reservation not yet expired — and
/// are checked in the same transaction that takes the stock, so two checkouts of one buyer racing
/// cannot both slip under them. Paid orders count for nothing: a buyer who pays may buy again.
/// Checkouts are also rate-limited per buyer (a token bucket, in the server's memory: with several
/// servers a buyer gets the rate at each, while the caps, kept in the database, hold across all).
public struct StockHoldPolicy: Sendable, Hashable {
    /// Orders awaiting payment one buyer may have open at once. Default 3.
    public var maximumOpenOrders: Int
    /// Units of one product one buyer may hold across their open orders. Default 10.
    public var maximumUnitsPerProduct: Int
    /// How fast one buyer may check out (each new order takes a token; a replayed
    /// `Idempotency-Key` takes none). Default 5 at once, then one every 6 seconds. Nil: no limit.
    public var checkoutRate: RateLimit?

    /// - Throws: ``KeyCatError/Code/validation`` unless both caps are at least 1.
    public init(maximumOpenOrders: Int = 3, maximumUnitsPerProduct: Int = 10,
                checkoutRate: RateLimit? = StockHoldPolicy.defaultCheckoutRate) throws(KeyCatError) {
        guard maximumOpenOrders >= 1 else {
            throw KeyCatError.validation("maximum_open_orders", "a buyer may hold at least one open order")
        }
        guard maximumUnitsPerProduct >= 1 else {
            throw KeyCatError.validation("maximum_units_per_product", "a buyer may hold at least one unit of a product")
        }
        self.maximumOpenOrders = maximumOpenOrders
        self.maximumUnitsPerProduct = maximumUnitsPerProduct
        self.checkoutRate = checkoutRate
    }

    /// Five checkouts at once, then one every six seconds.
    public static let defaultCheckoutRate = try! RateLimit(perSecond: 1.0 / 6, burst: 5)

    /// 3 open orders, 10 units of a product, the default checkout rate.
    public static let standard = try! StockHoldPolicy()
}

/// What the store checks when it creates an order (see ``StockHoldPolicy``).
public struct StockHoldLimits: Sendable, Hashable {
    public var maximumOpenOrders: Int
    public var maximumUnitsPerProduct: Int

    public init(maximumOpenOrders: Int, maximumUnitsPerProduct: Int) {
        self.maximumOpenOrders = maximumOpenOrders
        self.maximumUnitsPerProduct = maximumUnitsPerProduct
    }

    /// `reservation_limit` (409): the buyer holds `held` of `limit` already.
    static func refusal(_ message: String, held: Int, limit: Int, product: ProductID? = nil) -> KeyCatError {
        var context = ["held": String(held), "limit": String(limit)]
        if let product { context["product_id"] = String(describing: product) }
        return KeyCatError(.reservationLimit, message, context: context)
    }

    /// Checks a new order against what the buyer already holds.
    ///
    /// - Parameters:
    ///   - openOrders: the buyer's open orders now.
    ///   - heldUnits: units of each product the buyer holds in them.
    /// - Throws: `reservation_limit` (409) naming what is over.
    public func check(_ order: NewOrder, openOrders: Int, heldUnits: [ProductID: Int]) throws(KeyCatError) {
        guard openOrders < maximumOpenOrders else {
            throw Self.refusal("you have \(openOrders) orders awaiting payment; pay or cancel one before ordering again",
                               held: openOrders, limit: maximumOpenOrders)
        }
        for line in order.lines {
            let held = heldUnits[line.productID] ?? 0
            guard held + line.quantity <= maximumUnitsPerProduct else {
                throw Self.refusal("at most \(maximumUnitsPerProduct) units of \(line.title) may wait for payment at once; you hold \(held)",
                                   held: held, limit: maximumUnitsPerProduct, product: line.productID)
            }
        }
    }
}
