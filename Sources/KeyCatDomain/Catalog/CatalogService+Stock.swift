import Foundation

extension CatalogService {
    /// Moves a listing's stock by hand — a stock count, damaged goods, a delivery — as one
    /// `adjustment` movement in the inventory ledger under the caller's name, audited, in one
    /// transaction. Checkout, expiry, cancels and refunds move stock on their own; this is the
    /// one way to change it otherwise (``update(_:_:by:)`` with a new stock comes here too, as
    /// the difference).
    ///
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `notFound` for a missing
    ///   or deleted listing; `validation` for a zero change, a missing reason (field `reason`) or
    ///   a stock that would leave 0–1,000,000 (field `by`).
    public func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, by principal: Principal) async throws(KeyCatError) -> Product {
        let adjustment = try adjustment.validated()
        let current = try await product(id, includingUnlisted: true)
        try authorizeChange(of: current, by: principal)
        let now = clock.now()
        let signed = adjustment.change > 0 ? "+\(adjustment.change)" : "\(adjustment.change)"
        return try await products.adjustStock(id, by: adjustment, at: now, audit: AuditEntry(
            actor: principal.auditActor, action: "product.adjust_stock", target: "product:\(id)",
            detail: "\(signed): \(adjustment.reason)", at: now))
    }

    /// One page of a listing's inventory ledger, oldest first: how its stock came to be. Its
    /// movements add up to its stock. Deleted listings keep their history.
    ///
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `notFound` for a listing
    ///   that never existed; `invalidCursor`.
    public func stockHistory(_ id: ProductID, limit: PageLimit = .default, cursor: String? = nil,
                             by principal: Principal) async throws(KeyCatError) -> Page<StockMovement> {
        guard let current = try await products.find(id) else { throw KeyCatError.notFound("product", id) }
        try authorizeChange(of: current, by: principal)
        let query = "stock_movements|\(id)"
        let after = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query).id }
        var items = try await products.stockMovements(of: id, after: after, limit: limit.value + 1)
        var nextCursor: String?
        if items.count > limit.value {
            items.removeLast()
            nextCursor = cursors.encode(CursorPosition(id: items[items.count - 1].id), query: query)
        }
        return Page(items: items, nextCursor: nextCursor)
    }
}
