import Foundation
import Synchronization
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// A listing that has sold keeps its category and kind (``CatalogService/update(_:_:by:)``),
/// even when the payment lands while its seller's change is on its way to the store.
@Suite("A payment landing during a seller's edit")
struct SoldGoodsRaceTests {
    @Test("a category change checked before a payment lands is refused when it is written after it, and changes nothing",
          arguments: Backend.stored)
    func paymentBetweenCheckAndWrite(_ backend: Backend) async throws {
        try await withCommerce(backend) { shop in
            let order = try await shop.checkout.checkout(
                CheckoutRequest(.items([CheckoutItem(productID: shop.product.id, quantity: 1)])), by: shop.buyer)
            shop.gateway.add(GatewayPayment(impUID: "imp_race", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
            // The order is placed but not paid: the seller may still say what the listing is.
            let products = PaysBeforeUpdating(inner: shop.products) {
                _ = try await shop.checkout.confirm(order.id, impUID: "imp_race", by: shop.buyer)
            }
            let catalog = CatalogFixture.catalog(products, clock: shop.clock)
            let before = try #require(try await shop.products.find(shop.product.id))
            var changes = ProductChanges(expectedVersion: before.version)
            changes.category = .keycap
            changes.title = "GMK 클래식 키캡"
            let seller = Principal(userID: before.sellerID, role: .seller)
            let refused = await keycatError { try await catalog.update(before.id, changes, by: seller) }
            #expect(refused?.code == .illegalTransition)
            #expect(refused?.context["field"] == "category")
            let after = try #require(try await shop.products.find(shop.product.id))
            #expect(after.category == .switch && after.title == before.title && after.version == before.version)
            #expect(products.payments.withLock { $0 } == 1)
        }
    }
}

/// The store's listings, with a payment run just before an update reaches the store: the
/// window between what the catalog read and what it writes.
private final class PaysBeforeUpdating: ProductRepository {
    let inner: any ProductRepository
    let pay: @Sendable () async throws -> Void
    let payments = Mutex(0)

    init(inner: any ProductRepository, pay: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.pay = pay
    }

    func update(_ product: Product, expectedVersion: Int, unlessPaidFor refusal: KeyCatError?, at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product {
        do { try await pay() } catch { throw KeyCatError(.internalError, "the payment failed: \(error)") }
        payments.withLock { $0 += 1 }
        return try await inner.update(product, expectedVersion: expectedVersion, unlessPaidFor: refusal, at: now, audit: audit)
    }

    func insert(_ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product { try await inner.insert(draft, sellerID: sellerID, images: images, at: now, audit: audit) }
    func find(_ id: ProductID) async throws(KeyCatError) -> Product? { try await inner.find(id) }
    func find(_ ids: [ProductID]) async throws(KeyCatError) -> [ProductID: Product] { try await inner.find(ids) }
    func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, at now: Date, audit: AuditEntry)
        async throws(KeyCatError) -> Product { try await inner.adjustStock(id, by: adjustment, at: now, audit: audit) }
    func stockMovements(of id: ProductID, after: Int64?, limit: Int) async throws(KeyCatError) -> [StockMovement] {
        try await inner.stockMovements(of: id, after: after, limit: limit)
    }
    func setImages(_ images: [ProductImage], of id: ProductID, expectedVersion: Int, at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product {
        try await inner.setImages(images, of: id, expectedVersion: expectedVersion, at: now, audit: audit)
    }
    func delete(_ id: ProductID, expectedVersion: Int?, at now: Date, audit: AuditEntry?) async throws(KeyCatError) {
        try await inner.delete(id, expectedVersion: expectedVersion, at: now, audit: audit)
    }
    func list(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int)
        async throws(KeyCatError) -> [Product] { try await inner.list(filter, sort: sort, after: position, limit: limit) }
    func search(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int)
        async throws(KeyCatError) -> SearchPage { try await inner.search(filter, sort: sort, after: position, limit: limit) }
    func isActiveSeller(_ sellerID: UserID) async throws(KeyCatError) -> Bool { try await inner.isActiveSeller(sellerID) }
    func imageFileNames(withdrawnSince: Date) async throws(KeyCatError) -> Set<String> {
        try await inner.imageFileNames(withdrawnSince: withdrawnSince)
    }
    func forgetImages(ofListingsWithdrawnBefore cutoff: Date, dryRun: Bool, at now: Date, audit: AuditEntry)
        async throws(KeyCatError) -> Int {
        try await inner.forgetImages(ofListingsWithdrawnBefore: cutoff, dryRun: dryRun, at: now, audit: audit)
    }
    func sweepLapsedDiscounts(at now: Date) async throws(KeyCatError) -> (changed: Int, nextEnd: Date?) {
        try await inner.sweepLapsedDiscounts(at: now)
    }
}
