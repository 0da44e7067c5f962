import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
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
    func createAndRead() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 64, 0, 0, 0, 48, 8, 6, 0, 0, 0, 1, 2, 3, 4]
        let first = try await catalog.create(draft, for: seller.userID, images: [png], by: seller)
        let second = try await catalog.create(draft, for: seller.userID, by: seller)
        #expect(first.id == ProductID(1) && second.id == ProductID(2))
        #expect(first.version == 1 && first.createdAt == clock.now() && first.updatedAt == clock.now())
        #expect(try await catalog.product(first.id) == first)
        #expect(try await images.load(first.images[0]) == png)
        await #expect(try products.find([first.id, second.id, ProductID(99)]).keys.sorted { $0.rawValue < $1.rawValue } == [first.id, second.id])
        #expect(products.auditEntries.isEmpty, "a seller's own listing is not audited")

        products.setActiveSeller(seller.userID, false)
        #expect(await keycatError { try await catalog.create(draft, for: seller.userID, by: seller) }?.code == .notFound)
    }

    @Test("a listing paid for or reviewed keeps its category: its seller's change is refused, an admin's is not")
    func soldListingKeepsItsCategory() async throws {
        let sold = try await catalog.create(draft, for: seller.userID, by: seller)
        let reviewed = try await catalog.create(draft, for: seller.userID, by: seller)
        products.recordPayment(of: sold.id)
        products.setCounters(of: reviewed.id, ratingCount: 1, ratingSum: 5, bookmarkCount: 0)
        var changes = ProductChanges(expectedVersion: 1)
        changes.category = draft.category == .accessory ? .keyboard : .accessory
        for product in [sold, reviewed] {
            #expect(await keycatError { try await catalog.update(product.id, changes, by: seller) }?.code == .illegalTransition)
        }
        #expect(try await catalog.update(sold.id, changes, by: Principal(userID: UserID(9), role: .admin)).category == changes.category)
    }

    @Test("buyers may not list, other sellers may not touch a listing, admins may")
    func authorization() async throws {
        let product = try await catalog.create(draft, for: seller.userID, by: seller)
        let buyer = Principal(userID: UserID(5), role: .buyer)
        let otherSeller = Principal(userID: UserID(6), role: .seller)
        var changes = ProductChanges(expectedVersion: 1)
        changes.title = "Renamed"

        #expect(await keycatError { try await catalog.create(draft, for: seller.userID, by: buyer) }?.code == .forbidden)
        #expect(await keycatError { try await catalog.create(draft, for: seller.userID, by: otherSeller) }?.code == .notOwner)
        #expect(await keycatError { try await catalog.update(product.id, changes, by: otherSeller) }?.code == .notOwner)
        #expect(await keycatError { try await catalog.delete(product.id, by: otherSeller) }?.code == .notOwner)

        let admin = Principal(userID: UserID(9), role: .admin)
        let updated = try await catalog.update(product.id, changes, by: admin)
        #expect(updated.title == "Renamed" && updated.version == 2)
        try await catalog.delete(product.id, by: .operatorConsole("t"))
        #expect(await keycatError { try await catalog.product(product.id) }?.code == .notFound)
        #expect(keycatError { try products.delete(product.id, expectedVersion: nil, at: clock.now(), audit: nil) }?.code == .notFound,
                "a second delete finds nothing")
        #expect(products.auditEntries.map(\.action) == ["product.update", "product.delete"])
        #expect(products.auditEntries.map(\.actor) == ["admin:9", "cli:t"])
    }

    @Test("an update carrying a stale version is a version conflict; a deleted listing is not found")
    func staleVersion() async throws {
        let product = try await catalog.create(draft, for: seller.userID, by: seller)
        var changes = ProductChanges(expectedVersion: 1)
        changes.stock = 9
        #expect(try await catalog.update(product.id, changes, by: seller).version == 2)
        #expect(await keycatError { try await catalog.update(product.id, changes, by: seller) }?.code == .versionConflict)
        #expect(keycatError { try products.update(product, expectedVersion: 1, at: clock.now(), audit: nil) }?.code
                == .versionConflict)
        try products.delete(product.id, expectedVersion: nil, at: clock.now(), audit: nil)
        #expect(keycatError { try products.update(product, expectedVersion: 3, at: clock.now(), audit: nil) }?.code
                == .notFound)
    }

    @Test("every sort walks every listed product exactly once, in order, three at a time", arguments: ProductSort.browsing)
    func walk(_ sort: ProductSort) async throws {
        let stocked = try await CatalogFixture.stock(catalog, products, clock: clock) { id, listing in
            products.setCounters(of: id, ratingCount: listing.ratingCount, ratingSum: listing.ratingSum,
                                 bookmarkCount: listing.bookmarks)
        }
        let walked = try await CatalogFixture.walk(catalog, sort)
        #expect(walked == CatalogFixture.expectedOrder(stocked, sort))
        #expect(walked.count == CatalogFixture.listings.count - 1 && !walked.contains(CatalogFixture.deleted))
    }

    @Test("filters combine with AND: hot-swap wired keyboards up to 150,000 won")
    func filterCombination() async throws {
        let stocked = try await CatalogFixture.stock(catalog, products, clock: clock) { _, _ in }
        let filter = ProductFilter(category: .keyboard, maximumPrice: Money(won: 150_000), connection: .wired, hotSwap: true)
        let expected = CatalogFixture.expectedOrder(stocked, .priceAscending).filter { id in
            let product = stocked.first { $0.id == id }!
            return product.category == .keyboard && product.pricing.salePrice.won <= 150_000
                && product.spec.connection == .wired && product.spec.pcb == .hotSwap
        }
        #expect(expected.map(\.rawValue) == [8, 1, 7])
        #expect(try await CatalogFixture.walk(catalog, .priceAscending, filter) == expected)
        let secondhandTactile = ProductFilter(kind: .secondhand, minimumPrice: Money(won: 100_000), switchType: .tactile,
                                              layout: .seventyFivePercent, hotSwap: false)
        #expect(try await CatalogFixture.walk(catalog, .newest, secondhandTactile).map(\.rawValue) == [3])
        #expect(try await CatalogFixture.walk(catalog, .newest, ProductFilter(sellerID: UserID(2))).isEmpty)
    }

    @Test("the sweep puts lapsed discounts back to the regular price and names the next end")
    func discountSweep() async throws {
        var soon = draft
        soon.pricing.discountEndsAt = clock.now().addingTimeInterval(3_600)
        var later = draft
        later.pricing.discountEndsAt = clock.now().addingTimeInterval(7_200)
        let lapsing = try await catalog.create(soon, for: seller.userID, by: seller)
        let running = try await catalog.create(later, for: seller.userID, by: seller)
        #expect(try await catalog.sweepLapsedDiscounts() == 0)

        clock.advance(by: 3_600)
        #expect(try await catalog.sweepLapsedDiscounts() == 1)
        let swept = try await catalog.product(lapsing.id)
        #expect(swept.pricing.salePrice == swept.pricing.regularPrice && swept.pricing.discountEndsAt == nil)
        #expect(swept.version == 2 && swept.updatedAt == clock.now())
        #expect(try await catalog.product(running.id) == running)
        let next = try products.sweepLapsedDiscounts(at: clock.now())
        #expect(next.changed == 0 && next.nextEnd == later.pricing.discountEndsAt)
        let cheapest = try await catalog.list(ProductListRequest(sort: .priceAscending)).items.map(\.id)
        #expect(cheapest == [running.id, lapsing.id])
    }

    @Test("the in-memory, SQLite and Postgres repositories walk every sort in the same order",
          arguments: Backend.stored, ProductSort.browsing)
    func sameOrderAsStored(_ backend: Backend, _ sort: ProductSort) async throws {
        let filter = ProductFilter(category: .keyboard, minimumPrice: Money(won: 50_000))
        let inMemory = try await CatalogFixture.stock(catalog, products, clock: clock) { id, listing in
            products.setCounters(of: id, ratingCount: listing.ratingCount, ratingSum: listing.ratingSum,
                                 bookmarkCount: listing.bookmarks)
        }
        let fromMemory = (try await CatalogFixture.walk(catalog, sort), try await CatalogFixture.walk(catalog, sort, filter))
        func walk(_ database: some SQLDatabase) async throws -> ([Product], ([ProductID], [ProductID])) {
            let repository = try await CatalogFixture.repository(database)
            let storeClock = TestClock()
            let storeCatalog = CatalogFixture.catalog(repository, clock: storeClock)
            let stored = try await CatalogFixture.stock(storeCatalog, repository, clock: storeClock) { id, listing in
                try await CatalogFixture.setCounters(id, listing, in: database)
            }
            let all = try await CatalogFixture.walk(storeCatalog, sort)
            let filtered = try await CatalogFixture.walk(storeCatalog, sort, filter)
            return (stored, (all, filtered))
        }
        let (stored, fromStore) = backend == .sqlite
            ? try await withTestDatabase { try await walk($0) } : try await withPostgresTestDatabase { try await walk($0) }
        #expect(stored == inMemory, "both stored the same listings, versions and times")
        #expect(fromMemory.0 == fromStore.0)
        #expect(fromMemory.1 == fromStore.1)
        #expect(fromMemory.0 == CatalogFixture.expectedOrder(inMemory, sort))
        #expect(!fromMemory.1.isEmpty)
    }

    @Test("every store refuses a stale, a deleted and a never-stored listing with the same errors", arguments: Backend.stored)
    func sameErrorsAsStored(_ backend: Backend) async throws {
        func refusals(_ repository: any ProductRepository, _ clock: TestClock) async throws -> [KeyCatError.Code?] {
            let catalog = CatalogFixture.catalog(repository, clock: clock)
            let product = try await catalog.create(draft, for: seller.userID, by: seller)
            let gone = try await catalog.create(draft, for: seller.userID, by: seller)
            var missing = product
            missing.id = ProductID(99)
            _ = try await repository.update(product, expectedVersion: 1, unlessPaidFor: nil, at: clock.now(), audit: nil)
            try await repository.delete(gone.id, expectedVersion: nil, at: clock.now(), audit: nil)
            return [
                await keycatError { try await repository.update(product, expectedVersion: 1, unlessPaidFor: nil, at: clock.now(), audit: nil) }?.code,
                await keycatError { try await repository.update(gone, expectedVersion: 2, unlessPaidFor: nil, at: clock.now(), audit: nil) }?.code,
                await keycatError { try await repository.update(missing, expectedVersion: 1, unlessPaidFor: nil, at: clock.now(), audit: nil) }?.code,
                await keycatError { try await repository.delete(gone.id, expectedVersion: nil, at: clock.now(), audit: nil) }?.code,
                await keycatError { try await repository.delete(missing.id, expectedVersion: nil, at: clock.now(), audit: nil) }?.code,
            ]
        }
        let inMemory = try await refusals(products, clock)
        let stored = backend == .sqlite
            ? try await withTestDatabase { try await refusals(try CatalogFixture.repository($0), TestClock()) }
            : try await withPostgresTestDatabase { try await refusals(try CatalogFixture.repository($0), TestClock()) }
        #expect(inMemory == stored)
        #expect(inMemory == [.versionConflict, .notFound, .notFound, .notFound, .notFound])
    }
}
