import Foundation

/// How much stock unpaid orders may hold: checkout sets a line's units aside for its buyer until
/// the reservation ends, so without bounds unpaid orders — one buyer's, or many fresh accounts' —
/// could hold a product's whole stock, renewing it every 15 minutes.
///
/// **The rule.** A line *holds* its units at checkout only if, counting them,
///
/// - unpaid orders of **all** buyers together hold at most ``maximumHeldPercent`` (50 %) of the
///   product's unsold units (those on the shelf plus those held), and
/// - at least ``minimumOnShelf`` (2) units stay on the shelf, and
/// - its buyer holds at most ``maximumUnitsPerProduct`` (10) units of the product.
///
/// A line past any of these is still accepted, **sold on payment** (as many Korean shops sell
/// scarce stock): it takes no units at checkout, its units are taken when its payment arrives,
/// and if the product sold out meanwhile the order fails and the payment is cancelled at once.
/// A buyer may have at most ``maximumOpenOrders`` (3) orders awaiting payment; a fourth is
/// refused (`reservation_limit`). Checkouts are also rate-limited per buyer (a token bucket, in
/// the server's memory: with several servers a buyer gets the rate at each, while the caps, kept
/// in the database, hold across all).
///
/// **The worst case.** Whatever the number of accounts or addresses, holds leave on the shelf at
/// least `max(S − ⌊50 % · S⌋, min(S, 2))` of a product's `S` unsold units for whoever pays first:
/// 1 of 1, 2 of 2, 2 of 3, 3 of 5, 5 of 10, 19 of 38 (a product of 1 or 2 units is only ever
/// sold on payment). A hoarder gains at most the other half, and only while renewing every hold
/// every 15 minutes with enough accounts (10 units each); paid orders count for nothing.
///
/// The caps are checked in the transaction that takes the stock, after locking the buyer's row
/// and the products' rows, so racing checkouts (of one buyer or of many) are counted one after
/// the other on every store.
public struct StockHoldPolicy: Sendable, Hashable {
    /// Orders awaiting payment one buyer may have open at once. Default 3.
    public var maximumOpenOrders: Int
    /// Units of one product one buyer may hold across their open orders; more are sold on
    /// payment. Default 10.
    public var maximumUnitsPerProduct: Int
    /// The share, in percent, of a product's unsold units that unpaid orders of all buyers
    /// together may hold; past it lines are sold on payment. Default 50; 100: no shared cap; 0:
    /// everything is sold on payment.
    public var maximumHeldPercent: Int
    /// Units a hold must leave on the shelf; a line that would leave fewer is sold on payment.
    /// Default 2.
    public var minimumOnShelf: Int
    /// How fast one buyer may check out (each new order takes a token; a replayed
    /// `Idempotency-Key` takes none). Default 5 at once, then one every 6 seconds. Nil: no limit.
    public var checkoutRate: RateLimit?

    /// - Throws: ``KeyCatError/Code/validation`` unless both per-buyer caps are at least 1, the
    ///   percent is within 0–100 and the shelf's minimum is not negative.
    public init(maximumOpenOrders: Int = 3, maximumUnitsPerProduct: Int = 10, maximumHeldPercent: Int = 50,
                minimumOnShelf: Int = 2, checkoutRate: RateLimit? = StockHoldPolicy.defaultCheckoutRate) throws(KeyCatError) {
        guard maximumOpenOrders >= 1 else {
            throw KeyCatError.validation("maximum_open_orders", "a buyer may hold at least one open order")
        }
        guard maximumUnitsPerProduct >= 1 else {
            throw KeyCatError.validation("maximum_units_per_product", "a buyer may hold at least one unit of a product")
        }
        guard (0...100).contains(maximumHeldPercent) else {
            throw KeyCatError.validation("maximum_held_percent", "a share of the stock is between 0 and 100 percent")
        }
        guard minimumOnShelf >= 0 else {
            throw KeyCatError.validation("minimum_on_shelf", "the units left on the shelf cannot be negative")
        }
        self.maximumOpenOrders = maximumOpenOrders
        self.maximumUnitsPerProduct = maximumUnitsPerProduct
        self.maximumHeldPercent = maximumHeldPercent
        self.minimumOnShelf = minimumOnShelf
        self.checkoutRate = checkoutRate
    }

    /// Five checkouts at once, then one every six seconds.
    public static let defaultCheckoutRate = try! RateLimit(perSecond: 1.0 / 6, burst: 5)

    /// Re-runs the initializer's checks on values that may have been changed since.
    public func validated() throws(KeyCatError) -> StockHoldPolicy {
        try StockHoldPolicy(maximumOpenOrders: maximumOpenOrders, maximumUnitsPerProduct: maximumUnitsPerProduct,
                            maximumHeldPercent: maximumHeldPercent, minimumOnShelf: minimumOnShelf, checkoutRate: checkoutRate)
    }

    /// 3 open orders, 10 units of a product, half a product's unsold units held and 2 on the
    /// shelf, the default checkout rate.
    public static let standard = try! StockHoldPolicy()

    /// What the store checks when it creates an order.
    public var limits: StockHoldLimits {
        StockHoldLimits(maximumOpenOrders: maximumOpenOrders, maximumUnitsPerProduct: maximumUnitsPerProduct,
                        maximumHeldPercent: maximumHeldPercent, minimumOnShelf: minimumOnShelf)
    }
}

/// What the store checks when it creates an order (see ``StockHoldPolicy``).
public struct StockHoldLimits: Sendable, Hashable {
    public var maximumOpenOrders: Int
    public var maximumUnitsPerProduct: Int
    public var maximumHeldPercent: Int
    public var minimumOnShelf: Int

    public init(maximumOpenOrders: Int, maximumUnitsPerProduct: Int, maximumHeldPercent: Int, minimumOnShelf: Int) {
        self.maximumOpenOrders = maximumOpenOrders
        self.maximumUnitsPerProduct = maximumUnitsPerProduct
        self.maximumHeldPercent = maximumHeldPercent
        self.minimumOnShelf = minimumOnShelf
    }

    /// Checks a new order against the buyer's open orders.
    ///
    /// - Throws: `reservation_limit` (409) with `held` and `limit` when the buyer has
    ///   ``maximumOpenOrders`` orders awaiting payment already.
    public func check(openOrders: Int) throws(KeyCatError) {
        guard openOrders < maximumOpenOrders else {
            throw KeyCatError(.reservationLimit,
                              "you have \(openOrders) orders awaiting payment; pay or cancel one before ordering again",
                              context: ["held": String(openOrders), "limit": String(maximumOpenOrders)])
        }
    }

    /// Whether a line of `quantity` units may hold them: `onShelf` units of the product are on
    /// the shelf, unpaid orders of all buyers hold `held` more, its buyer `heldByBuyer` of those.
    /// The store asks the same in SQL (``StockHoldPolicy`` states the rule).
    public func mayHold(_ quantity: Int, onShelf: Int, held: Int, heldByBuyer: Int) -> Bool {
        quantity <= onShelf && onShelf - quantity >= minimumOnShelf
            && (100 - maximumHeldPercent) * held + 100 * quantity <= maximumHeldPercent * onShelf
            && heldByBuyer + quantity <= maximumUnitsPerProduct
    }
}
