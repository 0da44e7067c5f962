import KeyCatDomain
import KeyCatInfrastructure

/// The shop's part of a relevance key: in stock, units sold, bookmarks and rating, below the
/// text score (docs/search.md, "Ranking").
extension SearchListQuery {
    /// The shop's signals in a relevance key, below its text score, as ``SearchPlan/relevanceKey(textScore:product:sales:)``
    /// packs them: units sold count as many as their value buys at the listing's price
    /// (``StandingSales/rankedUnits(at:)``; `price` is never 0). Built once per store: a page's
    /// SQL is built for each new set of inputs, ``page(plan:terms:order:floor:filter:sort:after:limit:dialect:)``.
    static func signals(_ dialect: SQLDialect) -> String {
        dialect.store == .postgres ? postgresSignals : sqliteSignals
    }

    private static let sqliteSignals = signals(rankedUnits: SQLDialect.sqlite.smaller("d.units_sold", "d.value_sold / p.price"))
    private static let postgresSignals = signals(rankedUnits: SQLDialect.postgres.smaller("d.units_sold", "d.value_sold / p.price"))

    private static func signals(rankedUnits: String) -> String {
        """
         + CASE WHEN p.stock > 0 THEN 1048576 ELSE 0 END + \(bucket(rankedUnits)) * 65536 \
        + \(bucket("p.bookmark_count")) * 1024 + p.rating_score / 100
        """
    }

    /// A count as its power of two: 0 for 0, 1 for 1, 2 for 2–3, … 15 from 16,384; small counts,
    /// the most common, are decided by the first comparisons.
    static func bucket(_ column: String) -> String {
        "(CASE WHEN \(column) < 1 THEN 0 " + (1...14).map { "WHEN \(column) < \(1 << $0) THEN \($0) " }.joined() + "ELSE 15 END)"
    }
}
