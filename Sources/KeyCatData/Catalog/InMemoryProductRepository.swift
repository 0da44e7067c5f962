import Foundation
import KeyCatDomain
import Synchronization

/// Listings in memory, for tests of the use cases without a file. Behaves as
/// ``SQLProductRepository`` does: ids from 1 up, times kept to the millisecond, conditional
/// updates on the version, soft deletes, keyset lists in the same total order (the sort key, then
/// the id, both ascending for `priceAscending` and descending for every other sort).
///
/// There is no users table here, so ``isActiveSeller(_:)`` answers from a set of seller ids given
/// at ``init(activeSellers:)`` and changed with ``setActiveSeller(_:_:)``. A seller leaving the set
/// keeps their listings listed (in SQLite, withdrawal is what unlists them, and that is the user
/// repository's work). The review and bookmark counters, which the social repositories keep in
/// SQLite, are set with ``setCounters(of:ratingCount:ratingSum:bookmarkCount:)``, and the listings
/// paid for with ``recordPayment(of:)``.
package final class InMemoryProductRepository: ProductRepository {
    private struct State {
        var products: [ProductID: Product] = [:]
        var activeSellers: Set<UserID>
        var paidFor: Set<ProductID> = []
        var audit: [AuditEntry] = []
        var nextID: Int64 = 1
        var movements: [StockMovement] = []

        /// Appends a ledger movement, as ``StockLedger`` does; a zero change writes nothing.
        mutating func record(_ kind: StockMovement.Kind, _ change: Int, _ product: ProductID, _ actor: String,
                             _ reason: String, _ now: Date) {
            guard change != 0 else { return }
            movements.append(StockMovement(id: Int64(movements.count + 1), productID: product, kind: kind, change: change,
                                           actor: actor, reason: reason, createdAt: now))
        }
    }

    private let state: Mutex<State>

    /// - Parameter activeSellers: the users ``isActiveSeller(_:)`` says yes to.
    package init(activeSellers: Set<UserID> = []) {
        state = Mutex(State(activeSellers: activeSellers))
    }

    /// The audit entries recorded with writes, oldest first.
    package var auditEntries: [AuditEntry] { state.withLock { $0.audit } }

    /// Makes `sellerID` an active seller (`true`) or not (`false`).
    package func setActiveSeller(_ sellerID: UserID, _ active: Bool) {
        state.withLock { state in
            if active { state.activeSellers.insert(sellerID) } else { state.activeSellers.remove(sellerID) }
        }
    }

    /// Sets the counters reviews and bookmarks keep; nothing else changes (as in SQLite, where
    /// they are written without a version bump).
    package func setCounters(of id: ProductID, ratingCount: Int, ratingSum: Int, bookmarkCount: Int) {
        state.withLock { state in
            state.products[id]?.ratingCount = ratingCount
            state.products[id]?.ratingSum = ratingSum
            state.products[id]?.bookmarkCount = bookmarkCount
        }
    }

    package func insert(
        _ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, audit: AuditEntry?
    ) throws(KeyCatError) -> Product {
        let now = Self.stored(now)
        return state.withLock { state in
            var pricing = draft.pricing
            pricing.discountEndsAt = pricing.discountEndsAt.map(Self.stored)
            let product = Product(
                id: ProductID(state.nextID), sellerID: sellerID, kind: draft.kind, category: draft.category,
                title: draft.title, content: draft.content, pricing: pricing, delivery: draft.delivery,
                stock: draft.stock, images: images, spec: draft.spec, createdAt: now, updatedAt: now)
            state.nextID += 1
            state.products[product.id] = product
            state.record(.listed, draft.stock, product.id, audit?.actor ?? "seller:\(sellerID)", "", now)
            if var audit {
                audit.target = "product:\(product.id)"
                state.audit.append(audit)
            }
            return product
        }
    }

    package func find(_ id: ProductID) throws(KeyCatError) -> Product? {
        state.withLock { $0.products[id] }
    }

    package func find(_ ids: [ProductID]) throws(KeyCatError) -> [ProductID: Product] {
        state.withLock { state in
            var found: [ProductID: Product] = [:]
            for id in ids { if let product = state.products[id] { found[id] = product } }
            return found
        }
    }

    /// Writes the fields an update may change (not the seller, images, counters or times of
    /// creation and deletion), as ``SQLProductRepository`` does.
    ///
    /// - Throws: `notFound` for a missing or deleted listing; `versionConflict` for a stale
    ///   version.
    package func update(
        _ product: Product, expectedVersion: Int, unlessPaidFor refusal: KeyCatError? = nil, at now: Date, audit: AuditEntry?
    ) throws(KeyCatError) -> Product {
        let now = Self.stored(now)
        return try state.withLock { state throws(KeyCatError) -> Product in
            guard var stored = state.products[product.id], stored.version == expectedVersion, stored.deletedAt == nil else {
                guard let current = state.products[product.id], current.deletedAt == nil else {
                    throw KeyCatError.notFound("product", product.id)
                }
                throw KeyCatError(.versionConflict, "product \(product.id) changed since version \(expectedVersion); read it again")
            }
            if let refusal, state.paidFor.contains(product.id) { throw refusal }
            stored.kind = product.kind
            stored.category = product.category
            stored.title = product.title
            stored.content = product.content
            stored.pricing = product.pricing
            stored.pricing.discountEndsAt = product.pricing.discountEndsAt.map(Self.stored)
            stored.delivery = product.delivery
            state.record(.adjustment, product.stock - stored.stock, product.id, audit?.actor ?? "seller:\(stored.sellerID)",
                         "stock set to \(product.stock)", now)
            stored.stock = product.stock
            stored.spec = product.spec
            stored.version += 1
            stored.updatedAt = now
            state.products[stored.id] = stored
            if let audit { state.audit.append(audit) }
            return stored
        }
    }

    package func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, at now: Date, audit: AuditEntry) throws(KeyCatError) -> Product {
        let now = Self.stored(now)
        return try state.withLock { state throws(KeyCatError) -> Product in
            guard var product = state.products[id], product.deletedAt == nil else { throw KeyCatError.notFound("product", id) }
            let stock = product.stock + adjustment.change
            guard (0...1_000_000).contains(stock) else {
                throw KeyCatError.validation("by", "stock would become \(stock); it must stay between 0 and 1,000,000")
            }
            product.stock = stock
            product.version += 1
            product.updatedAt = now
            state.products[id] = product
            state.record(.adjustment, adjustment.change, id, audit.actor, adjustment.reason, now)
            state.audit.append(audit)
            return product
        }
    }

    package func stockMovements(of id: ProductID, after: Int64?, limit: Int) throws(KeyCatError) -> [StockMovement] {
        state.withLock { state in
            Array(state.movements.filter { $0.productID == id && $0.id > (after ?? 0) }.prefix(limit))
        }
    }

    package func setImages(_ images: [ProductImage], of id: ProductID, expectedVersion: Int, at now: Date, audit: AuditEntry?)
        throws(KeyCatError) -> Product
    {
        let now = Self.stored(now)
        return try state.withLock { state throws(KeyCatError) -> Product in
            guard var product = state.products[id], product.deletedAt == nil else {
                throw KeyCatError.notFound("product", id)
            }
            guard product.version == expectedVersion else {
                throw KeyCatError(.versionConflict, "product \(id) changed since version \(expectedVersion); read it again")
            }
            product.images = images
            product.version += 1
            product.updatedAt = now
            state.products[id] = product
            if let audit { state.audit.append(audit) }
            return product
        }
    }

    package func imageFileNames(withdrawnSince: Date) throws(KeyCatError) -> Set<String> {
        state.withLock { state in
            Set(state.products.values.filter { $0.deletedAt.map { $0 >= withdrawnSince } ?? true }.flatMap { $0.images.map(\.fileName) })
        }
    }

    package func forgetImages(ofListingsWithdrawnBefore cutoff: Date, dryRun: Bool, at now: Date, audit: AuditEntry) throws(KeyCatError) -> Int {
        state.withLock { state in
            let forgotten = state.products.values.filter { ($0.deletedAt.map { $0 < cutoff } ?? false) && !$0.images.isEmpty }.map(\.id)
            guard !dryRun else { return forgotten.count }
            guard !forgotten.isEmpty else { return 0 }
            for id in forgotten { state.products[id]?.images = [] }
            var entry = audit
            entry.detail += ": \(forgotten.count) listing(s)"
            state.audit.append(entry)
            return forgotten.count
        }
    }

    package func delete(_ id: ProductID, expectedVersion: Int?, at now: Date, audit: AuditEntry?) throws(KeyCatError) {
        let now = Self.stored(now)
        try state.withLock { state throws(KeyCatError) in
            guard var product = state.products[id], product.deletedAt == nil else {
                throw KeyCatError.notFound("product", id)
            }
            if let expectedVersion, product.version != expectedVersion {
                throw KeyCatError(.versionConflict, "product \(id) changed since version \(expectedVersion); read it again")
            }
            product.deletedAt = now
            product.isListed = false
            product.version += 1
            product.updatedAt = now
            state.products[id] = product
            if let audit { state.audit.append(audit) }
        }
    }

    package func list(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [Product] {
        if filter.text != nil { return try hits(filter, sort: sort, after: position, limit: limit).map(\.product) }
        let ascending = sort == .priceAscending
        // (key, id) pairs compared as tuples: the same total order as the SQL's ORDER BY.
        func precedes(_ left: (Int64, Int64), _ right: (Int64, Int64)) -> Bool {
            ascending ? left < right : left > right
        }
        let start = position.map { ($0.sortKey, $0.id) }
        return liveProducts()
            .filter { $0.isListed && Self.matches($0, filter) }
            .map { (key: (sort.key(of: $0), $0.id.rawValue), product: $0) }
            .filter { entry in start.map { precedes($0, entry.key) } ?? true }
            .sorted { precedes($0.key, $1.key) }
            .prefix(max(limit, 0))
            .map(\.product)
    }

    /// Whether `product` passes every set filter (the price bounds are on the stored selling
    /// price, inclusive; a listing without the filtered spec field never matches).
    static func matches(_ product: Product, _ filter: ProductFilter) -> Bool {
        if let category = filter.category, product.category != category { return false }
        if let sellerID = filter.sellerID, product.sellerID != sellerID { return false }
        if let kind = filter.kind, product.kind != kind { return false }
        if let minimum = filter.minimumPrice, product.pricing.salePrice < minimum { return false }
        if let maximum = filter.maximumPrice, product.pricing.salePrice > maximum { return false }
        if let switchType = filter.switchType, product.spec.switchType != switchType { return false }
        if let layout = filter.layout, product.spec.layout != layout { return false }
        if let connection = filter.connection, product.spec.connection != connection { return false }
        if let hotSwap = filter.hotSwap, product.spec.pcb != (hotSwap ? .hotSwap : .soldered) { return false }
        if let tag = filter.tag, !product.tags.contains(where: { SearchAnalyzer.normalize($0) == tag }) { return false }
        return true
    }

    /// Every listing not deleted, listed or not.
    func liveProducts() -> [Product] {
        state.withLock { state in state.products.values.filter { $0.deletedAt == nil } }
    }

    /// Records that an order of `id` was paid (there are no orders here), which an update with a
    /// refusal then refuses.
    package func recordPayment(of id: ProductID) {
        state.withLock { _ = $0.paidFor.insert(id) }
    }

    package func isActiveSeller(_ sellerID: UserID) throws(KeyCatError) -> Bool {
        state.withLock { $0.activeSellers.contains(sellerID) }
    }

    package func sweepLapsedDiscounts(at now: Date) throws(KeyCatError) -> (changed: Int, nextEnd: Date?) {
        let now = Self.stored(now)
        return state.withLock { state in
            var changed = 0
            for (id, var product) in state.products {
                guard let ends = product.pricing.discountEndsAt, ends <= now else { continue }
                product.pricing.salePrice = product.pricing.regularPrice
                product.pricing.discountEndsAt = nil
                product.version += 1
                product.updatedAt = now
                state.products[id] = product
                changed += 1
            }
            return (changed, state.products.values.compactMap(\.pricing.discountEndsAt).min())
        }
    }

    /// `date` to the millisecond, as SQLite stores it, so keys and comparisons agree.
    private static func stored(_ date: Date) -> Date { StoredTime.date(StoredTime.milliseconds(date)) }
}
