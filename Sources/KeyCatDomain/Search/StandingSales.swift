/// What a listing's standing sales add up to, the sales signal of the relevance ranking
/// (docs/search.md, "Ranking"): the units sold on orders that stand and what their buyers paid
/// for them.
public struct StandingSales: Sendable, Hashable {
    public var units: Int
    /// The lines' value: unit price times quantity, at the prices they were sold at.
    public var value: Money

    public init(units: Int, value: Money) {
        self.units = units
        self.value = value
    }

    /// No sales.
    public static let none = StandingSales(units: 0, value: .zero)

    /// The units the ranking counts while the listing sells at `price`: its units sold, but no
    /// more than their value buys at that price. Units sold for ₩1 before a price rise, or
    /// under a discount of 99%, count for almost nothing once the listing asks its real price,
    /// so a seller cannot buy a listing's rank with their own cheap orders and then charge in
    /// full; a listing sold 30% off counts seven units in ten once the discount ends.
    public func rankedUnits(at price: Money) -> Int {
        guard price.won > 0 else { return units }
        return Int(min(Int64(units), value.won / price.won))
    }
}
