import Foundation

/// One row of a product's inventory ledger: every change to `stock` is one movement, written in
/// the same transaction as the change, so a product's stock is always the sum of its movements
/// and `db check` can prove it.
public struct StockMovement: Sendable, Hashable, Codable {
    /// Why the stock moved.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The stock a database already held when its ledger began (one per product).
        case opening
        /// The initial stock of a new listing (created, imported, seeded).
        case listed
        /// Units taken by an order at checkout.
        case orderTaken = "order_taken"
        /// Units given back when an order expired, was cancelled or failed.
        case orderReturned = "order_returned"
        /// Units given back by a full refund with restock.
        case refundRestock = "refund_restock"
        /// A change by hand (a stock count, damaged goods, a delivery), with who and why.
        case adjustment
    }

    /// The ledger row's id; movements of one product are ordered by it.
    public var id: Int64
    public var productID: ProductID
    public var kind: Kind
    /// Units added (positive) or removed (negative).
    public var change: Int
    /// The order behind an order movement.
    public var orderID: OrderID?
    /// Who moved it: an operator or seller for adjustments, `system` otherwise.
    public var actor: String
    /// Why, in the actor's words (adjustments), or empty.
    public var reason: String
    public var createdAt: Date

    public init(id: Int64, productID: ProductID, kind: Kind, change: Int, orderID: OrderID? = nil,
                actor: String = "system", reason: String = "", createdAt: Date) {
        self.id = id
        self.productID = productID
        self.kind = kind
        self.change = change
        self.orderID = orderID
        self.actor = actor
        self.reason = reason
        self.createdAt = createdAt
    }
}

/// An operator's or seller's change of a product's stock by hand.
public struct StockAdjustment: Sendable, Hashable {
    /// Units to add (positive) or remove (negative); never zero.
    public var change: Int
    /// Why (1–200 characters): "stock count", "3 damaged in transit"…
    public var reason: String

    public init(change: Int, reason: String) {
        self.change = change
        self.reason = reason
    }

    /// The adjustment with its reason trimmed, or a `validation` error naming the field.
    public func validated() throws(KeyCatError) -> StockAdjustment {
        guard change != 0, (-1_000_000...1_000_000).contains(change) else {
            throw .validation("by", "an adjustment moves between 1 and 1,000,000 units, up or down")
        }
        let reason = try TextRules.text(reason, TextRules.Field("reason", characters: 1...200))
        return StockAdjustment(change: change, reason: reason)
    }
}
