import KeyCatDomain
import KeyCatInfrastructure

/// Who may review what, answered from the orders tables: a buyer may review a product once an
/// order of it was delivered to them (`delivered_at` set) and is still delivered or only partly
/// refunded. Paid or shipped is not enough (a review of what one has not held says nothing), and
/// a fully refunded, cancelled, failed or expired order does not count.
package struct SQLPurchaseHistory<Database: SQLDatabase>: PurchaseHistory {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func hasEligiblePurchase(buyer: UserID, product: ProductID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.readStatement { try Self.hasSupportingLine(buyer: buyer, product: product, on: $0) }
        }
    }

    /// Whether a line lets `buyer` review `product` (``supportingLine(buyer:product:confirmed:)``),
    /// read on `connection`: the service's check, and the review insert's own in its transaction.
    static func hasSupportingLine(buyer: UserID, product: ProductID, on connection: some SQLConnection) throws -> Bool {
        try connection.queryOne("SELECT EXISTS (\(supportingLine(buyer: "?", product: "?")))",
                                [.integer(buyer.rawValue), .integer(product.rawValue)]) { $0.bool(0) } ?? false
    }
}

extension SQLPurchaseHistory {
    /// The lines that let `buyer` review `product` (SQL expressions): delivered in their
    /// shipment and its receipt confirmed (구매확정), not refunded on their own, in an order that still holds its payment, and not
    /// half refunded or more by parts of their value (a seller's compensation, an operator's
    /// refund by amount: the ledger's `refund` entries against the line). A buyer refunded most
    /// of what a line cost keeps nothing of the purchase that a review could vouch for.
    ///
    /// `confirmed`: whether the parcel's receipt must be confirmed. Writing a review needs it; a
    /// refund's sweep of the reviews it unsupported does not, so a review written before
    /// confirmation was required stays until a refund takes its line away.
    static func supportingLine(buyer: String, product: String, confirmed: Bool = true) -> String {
        """
        SELECT 1 FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN shipments s ON s.id = l.shipment_id
        WHERE o.buyer_id = \(buyer) AND l.product_id = \(product) AND s.status = 'delivered'\(confirmed ? " AND s.confirmed_at IS NOT NULL" : "")
          AND l.refunded_at IS NULL
          AND o.status IN ('paid', 'shipped', 'delivered', 'partially_refunded')
          AND \(SettlementLedger.lessThanHalfRefunded("l"))
        """
    }
}
