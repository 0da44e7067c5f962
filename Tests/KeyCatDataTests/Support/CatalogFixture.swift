import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import Testing

/// One listing of the catalog the walks read, with the counters reviews and bookmarks would
/// have set, and how long after the previous one it is created (0: the same millisecond).
struct Listing: Sendable {
    var secondsAfterPrevious: TimeInterval
    var draft: ProductDraft
    var ratingCount = 0
    var ratingSum = 0
    var bookmarks = 0
}

/// A catalog built to tie on every sort key: equal creation times, prices, ratings and
/// bookmark counts, so only the id tie-breaker orders some pairs.
enum CatalogFixture {
    static let seller = UserID(1)
    static let sellerPrincipal = Principal(userID: seller, role: .seller)
    static let cursorKey = [UInt8](repeating: 7, count: 32)

    static func listing(
        _ after: TimeInterval, _ category: ProductCategory, _ kind: ProductKind, price: Int64, regular: Int64,
        _ spec: KeyboardSpec = KeyboardSpec(), rating: (count: Int, sum: Int) = (0, 0), bookmarks: Int = 0
    ) -> Listing {
        let draft = ProductDraft(
            kind: kind, category: category, title: "\(category.rawValue) at \(price)", content: "",
            pricing: Pricing(regularPrice: Money(won: regular), salePrice: Money(won: price)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .standard), stock: 5, spec: spec)
        return Listing(secondsAfterPrevious: after, draft: draft, ratingCount: rating.count, ratingSum: rating.sum, bookmarks: bookmarks)
    }

    static let listings: [Listing] = [
        listing(0, .keyboard, .commercial, price: 150_000, regular: 180_000,
                KeyboardSpec(connection: .wired, pcb: .hotSwap, switchType: .linear, layout: .tenkeyless),
                rating: (2, 9), bookmarks: 5),
        listing(0, .keycap, .commercial, price: 90_000, regular: 90_000, bookmarks: 5),
        listing(60, .keyboard, .secondhand, price: 150_000, regular: 150_000,
                KeyboardSpec(connection: .bluetooth, pcb: .soldered, switchType: .tactile, layout: .seventyFivePercent),
                rating: (4, 18), bookmarks: 12),
        listing(60, .switch, .commercial, price: 700, regular: 700, KeyboardSpec(switchType: .linear), rating: (1, 5)),
        listing(0, .keyboard, .groupBuy, price: 320_000, regular: 350_000,
                KeyboardSpec(connection: .multi, pcb: .hotSwap, switchType: .linear, layout: .sixtyFivePercent),
                rating: (2, 9), bookmarks: 12),
        listing(60, .accessory, .commercial, price: 90_000, regular: 90_000),
        listing(1, .keyboard, .commercial, price: 150_000, regular: 150_000,
                KeyboardSpec(connection: .wired, pcb: .hotSwap, switchType: .tactile, layout: .fullSize),
                rating: (3, 12), bookmarks: 5),
        listing(0, .keyboard, .secondhand, price: 45_000, regular: 60_000,
                KeyboardSpec(connection: .wired, pcb: .hotSwap, switchType: .clicky, layout: .sixtyPercent), bookmarks: 1),
        listing(60, .keycap, .groupBuy, price: 700, regular: 800, rating: (1, 4), bookmarks: 12),
        listing(0, .keyboard, .commercial, price: 99_000, regular: 99_000,
                KeyboardSpec(connection: .wireless, pcb: .soldered, switchType: .linear, layout: .tenkeyless), rating: (2, 9)),
    ]

    /// The listing deleted before the walks, which no list may return.
    static let deleted = ProductID(6)

    /// Creates every listing through `catalog` as the seller, sets its counters with
    /// `setCounters`, deletes ``deleted``, and returns the listings as stored.
    static func stock(
        _ catalog: CatalogService, _ repository: any ProductRepository, clock: TestClock,
        setCounters: (ProductID, Listing) async throws -> Void
    ) async throws -> [Product] {
        var ids: [ProductID] = []
        for listing in listings {
            clock.advance(by: listing.secondsAfterPrevious)
            let product = try await catalog.create(listing.draft, for: seller, by: sellerPrincipal)
            try await setCounters(product.id, listing)
            ids.append(product.id)
        }
        try await catalog.delete(deleted, by: sellerPrincipal)
        var products: [Product] = []
        for id in ids {
            if let product = try await repository.find(id) { products.append(product) }
        }
        return products
    }

    /// `products` in `sort` order as architecture §3 states it, from the listings' own fields: newest
    /// first, cheapest or dearest first, best average first (none counts as 0), most bookmarked
    /// first; ties by id, ascending only for `priceAscending`. Deleted listings are left out.
    static func expectedOrder(_ products: [Product], _ sort: ProductSort) -> [ProductID] {
        func key(_ product: Product) -> Double {
            switch sort {
            case .newest: product.createdAt.timeIntervalSince1970
            case .priceAscending, .priceDescending: Double(product.pricing.salePrice.won)
            case .rating: product.averageRating ?? 0
            case .popular: Double(product.bookmarkCount)
            case .relevance: 0  // no order without a search text: never asked for here
            }
        }
        return products.filter { $0.deletedAt == nil }.sorted { left, right in
            let (a, b) = ((key(left), left.id.rawValue), (key(right), right.id.rawValue))
            return sort == .priceAscending ? a < b : a > b
        }.map(\.id)
    }

    /// Every page of `sort` under `filter`, three at a time, following the cursors to the end.
    static func walk(_ catalog: CatalogService, _ sort: ProductSort, _ filter: ProductFilter = ProductFilter()) async throws -> [ProductID] {
        var ids: [ProductID] = []
        var cursor: String?
        for _ in 0..<20 {
            let page = try await catalog.list(ProductListRequest(filter: filter, sort: sort, limit: PageLimit(3), cursor: cursor))
            #expect(page.items.count <= 3)
            ids += page.items.map(\.id)
            cursor = page.nextCursor
            if cursor == nil { return ids }
        }
        Issue.record("the walk under \(sort) did not end")
        return ids
    }

    /// The catalog service over `products`, with an in-memory image store.
    static func catalog(_ products: any ProductRepository, clock: TestClock) -> CatalogService {
        CatalogService(products: products, images: InMemoryImageStore(),
                       cursors: HMACPageCursorCodec(key: cursorKey), clock: clock)
    }

    /// A migrated SQLite catalog with user 1 as an active seller.
    static func sqliteRepository(_ database: SQLiteDatabase) async throws -> SQLProductRepository<SQLiteDatabase> {
        try await repository(database)
    }

    /// A migrated catalog in either store with user 1 as an active seller.
    static func repository<Database: SQLDatabase>(_ database: Database) async throws -> SQLProductRepository<Database> {
        try await database.write {
            try $0.run("""
                INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                VALUES ('s@example.com','seller','!','seller',0,0)
                """, [])
        }
        return SQLProductRepository(database: database)
    }

    /// Sets the counters as the review and bookmark repositories keep them.
    static func setCounters(_ id: ProductID, _ listing: Listing, in database: some SQLDatabase) async throws {
        try await database.write {
            try $0.run(
                "UPDATE products SET rating_count = ?, rating_sum = ?, rating_score = ?, bookmark_count = ? WHERE id = ?",
                [.int(listing.ratingCount), .int(listing.ratingSum),
                 .integer(RatingScore.score(sum: listing.ratingSum, count: listing.ratingCount)),
                 .int(listing.bookmarks), .integer(id.rawValue)])
        }
    }
}
