import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

@Suite("Stock adjustments on the in-memory product repository")
struct InMemoryStockTests {
    let clock = TestClock()
    let products = InMemoryProductRepository(activeSellers: [CatalogFixture.seller])
    let catalog: CatalogService
    let seller = CatalogFixture.sellerPrincipal

    init() {
        catalog = CatalogService(products: products, images: InMemoryImageStore(),
                                 cursors: HMACPageCursorCodec(key: CatalogFixture.cursorKey), clock: clock)
    }

    @Test("adjustments and a new stock are ledger movements that add up to the stock, each audited")
    func movementsAddUp() async throws {
        var draft = CatalogFixture.listings[0].draft
        draft.stock = 5
        let product = try await catalog.create(draft, for: seller.userID, by: seller)
        _ = try await catalog.adjustStock(product.id, by: StockAdjustment(change: 4, reason: "delivery"), by: seller)
        var changes = ProductChanges(expectedVersion: nil)
        changes.stock = 2
        let updated = try await catalog.update(product.id, changes, by: seller)
        let history = try await catalog.stockHistory(product.id, by: seller).items
        #expect(history.map(\.kind) == [.listed, .adjustment, .adjustment])
        #expect(history.map(\.change) == [5, 4, -7])
        #expect(history.reduce(0) { $0 + $1.change } == updated.stock)
        #expect(products.auditEntries.map(\.action) == ["product.adjust_stock", "product.update"])
        #expect(products.auditEntries.allSatisfy { $0.actor == "seller:\(seller.userID)" })
    }

    @Test("an adjustment below zero or above a million is refused and changes nothing")
    func bounds() async throws {
        var draft = CatalogFixture.listings[0].draft
        draft.stock = 1
        let product = try await catalog.create(draft, for: seller.userID, by: seller)
        #expect(await keycatError { try await catalog.adjustStock(product.id, by: StockAdjustment(change: -2, reason: "count"), by: seller) }?.code == .validation)
        #expect(await keycatError { try await catalog.adjustStock(product.id, by: StockAdjustment(change: 1_000_000, reason: "count"), by: seller) }?.code == .validation)
        #expect(try await catalog.product(product.id).stock == 1)
        #expect(try await catalog.stockHistory(product.id, by: seller).items.count == 1)
        #expect(products.auditEntries.isEmpty)
    }
}
