import KeyCatDomain
import KeyCatInfrastructure

/// Units sold and their value, a ranking signal kept in `search_documents` so that a payment
/// writes no `products` row: counted when an order is paid, counted again when a refund takes
/// some back. The ranking counts the units at most as many as their value buys at the listing's
/// price (``StandingSales/rankedUnits(at:)``).
extension SearchIndex {
    /// The statement that counts a paid order's units as sold, a ranking signal (docs/search.md
    /// "Ranking"), into the documents of its listings.
    ///
    /// On Postgres it locks the documents in id order first, as a batch of the index writes
    /// them (``index(_:checkingPostings:on:)``), so that two payments of the same listings, or a
    /// payment and a batch, wait for each other in one order rather than in a circle, which
    /// Postgres would break only after its `deadlock_timeout`, a second. The payment took its
    /// turn after a catch-up's batch first (``catchUpTurn``).
    static func countSales<Row>(of orderID: OrderID, dialect: SQLDialect) -> SQLStatement<Row> {
        let documents = salesDocuments(dialect)
        return .run("""
            UPDATE search_documents SET (units_sold, value_sold) = (
                SELECT search_documents.units_sold + \(unitsSum), search_documents.value_sold + \(valueSum)
                FROM order_lines l WHERE l.order_id = ? AND l.product_id = search_documents.product_id)
            WHERE product_id IN (\(documents))
            """, [.integer(orderID.rawValue), .integer(orderID.rawValue)])
    }

    /// The condition (on an order line `l` of an order `o`) of a sale that stands, the units a
    /// listing's ranking counts as sold: paid, not refunded on its own, in an order not cancelled
    /// or refunded in full, and not half refunded or more by parts of its value (the ledger's
    /// `refund` entries against the line), the rule a review's purchase follows. A buyer who pays
    /// and cancels sells nothing, however often they do; nor, since 2026-12-01, one whose seller
    /// gives back all but a won of 99 units.
    static let standingSale = """
        o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded')
          AND \(SettlementLedger.lessThanHalfRefunded("l"))
        """

    /// A listing's standing sales as `columns`, aggregates of its lines `l` (``unitsSum``,
    /// ``valueSum``), for the listing `product` (an SQL expression): one row, zeros without any.
    static func standingSales(_ columns: String, of product: String) -> String {
        "SELECT \(columns) FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.product_id = \(product) AND \(standingSale)"
    }

    /// The units of a listing's lines `l`, 0 without any.
    static let unitsSum = "coalesce(sum(l.quantity), 0)"
    /// What a listing's lines `l` were sold for, 0 without any.
    static let valueSum = "coalesce(sum(l.unit_price * l.quantity), 0)"

    /// The statement that counts again, from their standing sales, the units sold (and their
    /// value) of the listings an order holds: after a refund, which may have taken some back.
    /// Locks the documents in id order first on Postgres, as ``countSales(of:dialect:)`` does.
    static func recountSales<Row>(of orderID: OrderID, dialect: SQLDialect) -> SQLStatement<Row> {
        .run("""
            UPDATE search_documents SET (units_sold, value_sold) = (
                \(standingSales("\(unitsSum), \(valueSum)", of: "search_documents.product_id")))
            WHERE product_id IN (\(salesDocuments(dialect)))
            """, [.integer(orderID.rawValue)])
    }

    /// The documents of an order's listings (its id the one argument), locked in id order on
    /// Postgres.
    private static func salesDocuments(_ dialect: SQLDialect) -> String {
        let lines = "SELECT product_id FROM order_lines WHERE order_id = ?"
        return dialect.store == .postgres
            ? "SELECT d.product_id FROM search_documents d WHERE d.product_id IN (\(lines)) ORDER BY d.product_id\(dialect.locking(.update))"
            : lines
    }
}
