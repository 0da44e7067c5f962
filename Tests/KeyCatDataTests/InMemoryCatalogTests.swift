import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import Testing

@Suite("Catalog on the in-memory product repository")
struct InMemoryCatalogTests {
    let clock = TestClock()
    let products = InMemoryProductRepository(activeSellers: [CatalogFixture.seller])
    let images = InMemoryImageStore()
    let catalog: CatalogService
    let seller = CatalogFixture.sellerPrincipal

    init() {
        catalog = CatalogService(products: products, images: images,
                                 cursors: HMACPageCursorCodec(key: CatalogFixture.cursorKey), clock: clock)
    }

    var draft: ProductDraft { CatalogFixture.listings[0].draft }

    @Test("a created listing gets the next id, version 1 and the clock's time, and reads back")
    func createAndRead() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 64, 0, 0, 0, 48, 8, 6, 0, 0, 0, 1, 2, 3, 4]
        let first = try catalog.create(draft, for: seller.userID, images: [png], by: seller)
        let second = try catalog.create(draft, for: seller.userID, by: seller)
        #expect(first.id == ProductID(1) && second.id == ProductID(2))
        #expect(first.version == 1 && first.createdAt == clock.now() && first.updatedAt == clock.now())
        #expect(try catalog.product(first.id) == first)
        #expect(try images.load(first.images[0]) == png)
        #expect(try products.find([first.id, second.id, ProductID(99)]).keys.sorted { $0.rawValue < $1.rawValue } == [first.id, second.id])
        #expect(products.auditEntries.isEmpty, "a seller's own listing is not audited")

        products.setActiveSeller(seller.userID, false)
        #expect(keycatError { try catalog.create(draft, for: seller.userID, by: seller) }?.code == .notFound)
    }

    @Test("buyers may not list, other sellers may not touch a listing, admins may")
    func authorization() throws {
        let product = try catalog.create(draft, for: seller.userID, by: seller)
        let buyer = Principal(userID: UserID(5), role: .buyer)
        let otherSeller = Principal(userID: UserID(6), role: .seller)
        var changes = ProductChanges(expectedVersion: 1)
        changes.title = "Renamed"

        #expect(keycatError { try catalog.create(draft, for: seller.userID, by: buyer) }?.code == .forbidden)
        #expect(keycatError { try catalog.create(draft, for: seller.userID, by: otherSeller) }?.code == .notOwner)
        #expect(keycatError { try catalog.update(product.id, changes, by: otherSeller) }?.code == .notOwner)
        #expect(keycatError { try catalog.delete(product.id, by: otherSeller) }?.code == .notOwner)

        let admin = Principal(userID: UserID(9), role: .admin)
        let updated = try catalog.update(product.id, changes, by: admin)
        #expect(updated.title == "Renamed" && updated.version == 2)
        try catalog.delete(product.id, by: .operatorConsole("t"))
        #expect(keycatError { try catalog.product(product.id) }?.code == .notFound)
        #expect(keycatError { try products.delete(product.id, at: clock.now(), audit: nil) }?.code == .notFound,
                "a second delete finds nothing")
        #expect(products.auditEntries.map(\.action) == ["product.update", "product.delete"])
        #expect(products.auditEntries.map(\.actor) == ["admin:9", "cli:t"])
    }

    @Test("an update carrying a stale version is a version conflict; a deleted listing is not found")
    func staleVersion() throws {
        let product = try catalog.create(draft, for: seller.userID, by: seller)
        var changes = ProductChanges(expectedVersion: 1)
        changes.stock = 9
        #expect(try catalog.update(product.id, changes, by: seller).version == 2)
        #expect(keycatError { try catalog.update(product.id, changes, by: seller) }?.code == .versionConflict)
        #expect(keycatError { try products.update(product, expectedVersion: 1, at: clock.now(), audit: nil) }?.code
                == .versionConflict)
        try products.delete(product.id, at: clock.now(), audit: nil)
        #expect(keycatError { try products.update(product, expectedVersion: 3, at: clock.now(), audit: nil) }?.code
                == .notFound)
    }

    @Test("every sort walks every listed product exactly once, in order, three at a time", arguments: ProductSort.allCases)
    func walk(_ sort: ProductSort) throws {
        let stocked = try CatalogFixture.stock(catalog, products, clock: clock) { id, listing in
            products.setCounters(of: id, ratingCount: listing.ratingCount, ratingSum: listing.ratingSum,
                                 bookmarkCount: listing.bookmarks)
        }
        let walked = try CatalogFixture.walk(catalog, sort)
        #expect(walked == CatalogFixture.expectedOrder(stocked, sort))
        #expect(walked.count == CatalogFixture.listings.count - 1 && !walked.contains(CatalogFixture.deleted))
    }

    @Test("filters combine with AND: hot-swap wired keyboards up to 150,000 won")
    func filterCombination() throws {
        let stocked = try CatalogFixture.stock(catalog, products, clock: clock) { _, _ in }
        let filter = ProductFilter(category: .keyboard, maximumPrice: Money(won: 150_000), connection: .wired, hotSwap: true)
        let expected = CatalogFixture.expectedOrder(stocked, .priceAscending).filter { id in
            let product = stocked.first { $0.id == id }!
            return product.category == .keyboard && product.pricing.salePrice.won <= 150_000
                && product.spec.connection == .wired && product.spec.pcb == .hotSwap
        }
        #expect(expected.map(\.rawValue) == [8, 1, 7])
        #expect(try CatalogFixture.walk(catalog, .priceAscending, filter) == expected)
        let secondhandTactile = ProductFilter(kind: .secondhand, minimumPrice: Money(won: 100_000), switchType: .tactile,
                                              layout: .seventyFivePercent, hotSwap: false)
        #expect(try CatalogFixture.walk(catalog, .newest, secondhandTactile).map(\.rawValue) == [3])
        #expect(try CatalogFixture.walk(catalog, .newest, ProductFilter(sellerID: UserID(2))).isEmpty)
    }

    @Test("the sweep puts lapsed discounts back to the regular price and names the next end")
    func discountSweep() throws {
        var soon = draft
        soon.pricing.discountEndsAt = clock.now().addingTimeInterval(3_600)
        var later = draft
        later.pricing.discountEndsAt = clock.now().addingTimeInterval(7_200)
        let lapsing = try catalog.create(soon, for: seller.userID, by: seller)
        let running = try catalog.create(later, for: seller.userID, by: seller)
        #expect(try catalog.sweepLapsedDiscounts() == 0)

        clock.advance(by: 3_600)
        #expect(try catalog.sweepLapsedDiscounts() == 1)
        let swept = try catalog.product(lapsing.id)
        #expect(swept.pricing.salePrice == swept.pricing.regularPrice && swept.pricing.discountEndsAt == nil)
        #expect(swept.version == 2 && swept.updatedAt == clock.now())
        #expect(try catalog.product(running.id) == running)
        let next = try products.sweepLapsedDiscounts(at: clock.now())
        #expect(next.changed == 0 && next.nextEnd == later.pricing.discountEndsAt)
        let cheapest = try catalog.list(ProductListRequest(sort: .priceAscending)).items.map(\.id)
        #expect(cheapest == [running.id, lapsing.id])
    }

    @Test("the in-memory and SQLite repositories walk every sort in the same order", arguments: ProductSort.allCases)
    func sameOrderAsSQLite(_ sort: ProductSort) async throws {
        let filter = ProductFilter(category: .keyboard, minimumPrice: Money(won: 50_000))
        let inMemory = try CatalogFixture.stock(catalog, products, clock: clock) { id, listing in
            products.setCounters(of: id, ratingCount: listing.ratingCount, ratingSum: listing.ratingSum,
                                 bookmarkCount: listing.bookmarks)
        }
        let fromMemory = (try CatalogFixture.walk(catalog, sort), try CatalogFixture.walk(catalog, sort, filter))
        let (stored, fromSQLite) = try await withTestDatabase { database in
            let repository = try CatalogFixture.sqliteRepository(database)
            let sqliteClock = TestClock()
            let sqliteCatalog = CatalogFixture.catalog(repository, clock: sqliteClock)
            let stored = try CatalogFixture.stock(sqliteCatalog, repository, clock: sqliteClock) { id, listing in
                try CatalogFixture.setCounters(id, listing, in: database)
            }
            return (stored, (try CatalogFixture.walk(sqliteCatalog, sort), try CatalogFixture.walk(sqliteCatalog, sort, filter)))
        }
        #expect(stored == inMemory, "both stored the same listings, versions and times")
        #expect(fromMemory.0 == fromSQLite.0)
        #expect(fromMemory.1 == fromSQLite.1)
        #expect(fromMemory.0 == CatalogFixture.expectedOrder(inMemory, sort))
        #expect(!fromMemory.1.isEmpty)
    }

    @Test("both repositories refuse a stale, a deleted and a never-stored listing with the same errors")
    func sameErrorsAsSQLite() async throws {
        func refusals(_ repository: any ProductRepository, _ clock: TestClock) throws -> [KeyCatError.Code?] {
            let catalog = CatalogFixture.catalog(repository, clock: clock)
            let product = try catalog.create(draft, for: seller.userID, by: seller)
            let gone = try catalog.create(draft, for: seller.userID, by: seller)
            var missing = product
            missing.id = ProductID(99)
            _ = try repository.update(product, expectedVersion: 1, at: clock.now(), audit: nil)
            try repository.delete(gone.id, at: clock.now(), audit: nil)
            return [
                keycatError { try repository.update(product, expectedVersion: 1, at: clock.now(), audit: nil) }?.code,
                keycatError { try repository.update(gone, expectedVersion: 2, at: clock.now(), audit: nil) }?.code,
                keycatError { try repository.update(missing, expectedVersion: 1, at: clock.now(), audit: nil) }?.code,
                keycatError { try repository.delete(gone.id, at: clock.now(), audit: nil) }?.code,
                keycatError { try repository.delete(missing.id, at: clock.now(), audit: nil) }?.code,
            ]
        }
        let inMemory = try refusals(products, clock)
        let sqlite = try await withTestDatabase { database in
            try refusals(try CatalogFixture.sqliteRepository(database), TestClock())
        }
        #expect(inMemory == sqlite)
        #expect(inMemory == [.versionConflict, .notFound, .notFound, .notFound, .notFound])
    }
}
