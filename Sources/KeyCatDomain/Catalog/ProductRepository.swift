import Foundation

/// Where listings are kept. Implementations: `SQLProductRepository` and
/// `InMemoryProductRepository`.
public protocol ProductRepository: Sendable {
    /// Stores a new listing, with its audit entry (if any) in the same transaction.
    func insert(
        _ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, audit: AuditEntry?
    ) async throws(KeyCatError) -> Product

    /// The listing with `id`, deleted or not; nil when there is none.
    func find(_ id: ProductID) async throws(KeyCatError) -> Product?

    /// The listings with these ids that exist, deleted or not, in one read (for carts and
    /// checkouts, which would otherwise read one product per line).
    func find(_ ids: [ProductID]) async throws(KeyCatError) -> [ProductID: Product]

    /// Replaces a listing's fields if its stored version is still `expectedVersion`, bumping the
    /// version. With `refusal`, only if no order of the listing was ever paid, whatever became of
    /// it since, checked in the update's own transaction, so a payment landing meanwhile cannot
    /// slip past the check (``CatalogService/update(_:_:by:)``: a listing that has sold keeps what
    /// it is).
    ///
    /// - Throws: `versionConflict` when the version moved on, `notFound` when it is gone;
    ///   `refusal` when the listing has been paid for.
    func update(_ product: Product, expectedVersion: Int, unlessPaidFor refusal: KeyCatError?, at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product

    /// Moves a live listing's stock by `adjustment.change` with an `adjustment` movement in the
    /// ledger naming `audit.actor` and the reason, and the audit entry, all in one transaction.
    ///
    /// - Throws: `notFound` when the listing is missing or deleted; `validation` (field `by`)
    ///   when the stock would leave 0–1,000,000.
    func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Product

    /// Up to `limit` of a listing's ledger movements, oldest first, strictly after the movement
    /// with id `after` (deleted listings included: their history stays).
    func stockMovements(of id: ProductID, after: Int64?, limit: Int) async throws(KeyCatError) -> [StockMovement]

    /// Replaces a live listing's images if its stored version is still `expectedVersion`,
    /// bumping the version, with its audit entry (if any) in the same transaction.
    ///
    /// - Throws: `versionConflict` when the version moved on, `notFound` when it is gone.
    func setImages(_ images: [ProductImage], of id: ProductID, expectedVersion: Int, at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product

    /// Soft-deletes a listing: it leaves every list and can no longer be bought. With
    /// `expectedVersion`, only while its stored version is still that one.
    ///
    /// - Throws: `notFound` when it is gone; `versionConflict` when the version moved on.
    func delete(_ id: ProductID, expectedVersion: Int?, at now: Date, audit: AuditEntry?) async throws(KeyCatError)

    /// Up to `limit` visible listings matching `filter` in `sort` order, strictly after `position`.
    func list(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Product]

    /// Up to `limit` visible listings matching `filter`, whose ``ProductFilter/text`` or
    /// ``ProductFilter/tag`` is set, in `sort` order strictly after `position`, each with the key
    /// its cursor carries (docs/search.md); fewer, with where the walk stopped, when a walk in
    /// the sort's index examined as many listings as a page may.
    func search(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> SearchPage

    /// Whether `sellerID` may list: a seller, neither suspended nor withdrawn. The insert checks
    /// it again in its own write.
    func isActiveSeller(_ sellerID: UserID) async throws(KeyCatError) -> Bool

    /// The file names of the images listings name: every live listing's, and those of listings
    /// withdrawn at or after `withdrawnSince`.
    func imageFileNames(withdrawnSince: Date) async throws(KeyCatError) -> Set<String>

    /// Empties the image lists of listings withdrawn before `cutoff`, so no row names what a
    /// sweep then deletes, with `audit`, in one transaction (with `dryRun`, only counts them).
    ///
    /// - Returns: how many listings.
    func forgetImages(ofListingsWithdrawnBefore cutoff: Date, dryRun: Bool, at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Int

    /// Ends lapsed discounts: every listing whose discount ended at or before `now` goes back to
    /// its regular price, so the stored price sorts right.
    ///
    /// - Returns: the number of listings changed and when the next discount ends, if any does.
    func sweepLapsedDiscounts(at now: Date) async throws(KeyCatError) -> (changed: Int, nextEnd: Date?)
}

extension ProductRepository {
    /// One lookup per id: for repositories without a batch read.
    public func find(_ ids: [ProductID]) async throws(KeyCatError) -> [ProductID: Product] {
        var found: [ProductID: Product] = [:]
        for id in ids { if let product = try await find(id) { found[id] = product } }
        return found
    }
}

extension ProductSort {
    /// The key a listing sorts by under this order, as stored in a cursor.
    public func key(of product: Product) -> Int64 {
        switch self {
        case .newest: product.createdAt.millisecondsSince1970
        case .priceAscending, .priceDescending: product.pricing.salePrice.won
        case .rating: RatingScore.score(sum: product.ratingSum, count: product.ratingCount)
        case .popular: Int64(product.bookmarkCount)
        // Computed by the store from the query (``SearchHit/key``); not a property of the listing.
        case .relevance: 0
        }
    }
}

/// The `rating` sort's key: the average rating in thousandths of a star (4.25 → 4250), an
/// integer so that keyset comparisons are exact. Products without reviews score 0.
public enum RatingScore {
    public static func score(sum: Int, count: Int) -> Int64 {
        count == 0 ? 0 : Int64(sum) * 1_000 / Int64(count)
    }
}
