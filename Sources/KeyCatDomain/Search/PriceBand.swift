/// A range of selling prices that the price facet counts listings in (docs/search.md "Facets").
///
/// The bands are fixed, in won, for what keyboards and their parts cost in Korea: under
/// ₩50,000 (keycap sets, switches, budget boards), ₩50,000–99,999 (entry mechanical boards),
/// ₩100,000–199,999 (the mid-range), ₩200,000–299,999 (enthusiast boards) and ₩300,000 and up
/// (customs and group buys). Each band is a `min_price`/`max_price` pair a client can filter by,
/// on the same stored selling price those filters compare (the delivery fee not counted).
public struct PriceBand: Sendable, Hashable, Comparable {
    /// The lowest price in the band, inclusive.
    public let minimum: Money
    /// The highest price in the band, inclusive; nil for the top band.
    public let maximum: Money?

    /// The bands, cheapest first: together they cover every price from 0 up.
    public static let all: [PriceBand] = {
        let bounds: [Int64] = [0, 50_000, 100_000, 200_000, 300_000]
        return bounds.indices.map { index in
            PriceBand(minimum: Money(won: bounds[index]),
                      maximum: index + 1 < bounds.count ? Money(won: bounds[index + 1] - 1) : nil)
        }
    }()

    /// The band's name in a facet answer: its bounds in won, `50000-99999`, or `300000-` for
    /// the top band.
    public var name: String { "\(minimum.won)-" + (maximum.map { String($0.won) } ?? "") }

    /// The band `price` falls in (a negative price, which no listing has, in the first).
    public static func containing(_ price: Money) -> PriceBand {
        all.last { $0.minimum <= price } ?? all[0]
    }

    public static func < (a: Self, b: Self) -> Bool { a.minimum < b.minimum }
}
