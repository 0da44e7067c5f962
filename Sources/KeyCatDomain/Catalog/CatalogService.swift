import Foundation
import Synchronization

/// The catalog's use cases: create, read, update and delete listings, and list them with
/// keyset pagination (architecture §2, §3).
///
/// Rules: only active sellers create listings (for themselves; an admin may create one for any
/// active seller); only the listing's seller or an admin changes or deletes it (anyone else gets
/// `notOwner`, a buyer creating gets `forbidden`); an update must carry the version it read.
/// A lapsed discount is swept back to the regular price before lists are read, at most once per
/// minute per process and only when a discount is due, so the stored price always sorts right.
///
/// A delivery fee is bounded by ``maximumDeliveryFee`` whenever one is set, on create and on
/// update. A listing given a higher fee before (the bound lowered, or from before it existed)
/// keeps selling at it, and other changes to it go through; only a change that sets a fee must
/// respect the bound. Its buyers are never charged other than what the listing shows, and the
/// fee pays commission (``CommissionPolicy/deliveryFeeRate``) all the same.
public struct CatalogService: Sendable {
    let products: any ProductRepository
    let images: any ImageStore
    let cursors: any PageCursorCodec
    let clock: any WallClock
    /// The highest delivery fee a listing may be given (within ``ProductDraft/deliveryFeeRange``).
    public let maximumDeliveryFee: Money
    private let sweep: DiscountSweepSchedule
    private let sweepsLapsedDiscounts: Bool
    /// How many images a seller may store, per ``RateLimit/imageUploadsDefault`` unless told
    /// otherwise; operators are not counted.
    private let imageUploads: PerUserRateLimiter

    /// - Parameters:
    ///   - maximumDeliveryFee: the highest fee a listing may be given; default
    ///     ``ProductDraft/defaultMaximumDeliveryFee`` (₩50,000).
    ///   - sweepsLapsedDiscounts: sweep lapsed discounts before lists (the default). False for
    ///     a read-only store, where a list must not write: a lapsed discount then keeps its
    ///     stored price until a writer sweeps it.
    ///   - imageUploadRate: how many images one seller may store, each a token, before any is
    ///     written (``RateLimit/imageUploadsDefault``); nil: no limit. Operators are not counted.
    ///   - imageUploadBuckets: where the budgets live when servers share them; nil keeps them in
    ///     this process.
    public init(products: any ProductRepository, images: any ImageStore, cursors: any PageCursorCodec, clock: any WallClock,
                maximumDeliveryFee: Money = ProductDraft.defaultMaximumDeliveryFee, sweepsLapsedDiscounts: Bool = true,
                imageUploadRate: RateLimit? = .imageUploadsDefault, imageUploadBuckets: (any TokenBucketStore)? = nil) {
        imageUploads = PerUserRateLimiter(limit: imageUploadRate, clock: clock, shared: imageUploadBuckets, what: "image uploads")
        self.products = products
        self.images = images
        self.cursors = cursors
        self.clock = clock
        self.maximumDeliveryFee = maximumDeliveryFee
        self.sweep = DiscountSweepSchedule()
        self.sweepsLapsedDiscounts = sweepsLapsedDiscounts
    }

    /// Creates a listing for `sellerID` with `imageData` (each JPEG, PNG, WebP or GIF, ≤ 2 MB,
    /// at most 5). Every image is checked before anything is written.
    ///
    /// - Throws: `forbidden` for a buyer, `notOwner` for a seller creating for someone else,
    ///   `notFound` when `sellerID` is not an active seller, `validation` naming the field
    ///   (`delivery_fee` above ``maximumDeliveryFee``).
    public func create(
        _ draft: ProductDraft, for sellerID: UserID, images imageData: [[UInt8]] = [], by principal: Principal
    ) async throws(KeyCatError) -> Product {
        switch principal.role {
        case .buyer:
            throw KeyCatError(.forbidden, "only approved sellers may list products")
        case .seller where principal.userID != sellerID:
            throw KeyCatError(.notOwner, "a seller may only list products of their own")
        case .seller, .admin:
            break
        }
        let now = clock.now()
        let draft = try draft.validated(at: now)
        try ProductDraft.checkDeliveryFee(draft.delivery.fee, atMost: maximumDeliveryFee)
        guard imageData.count <= ImageRules.maximumPerProduct else {
            throw .validation("images", "a product has at most \(ImageRules.maximumPerProduct) images")
        }
        for bytes in imageData { _ = try images.inspect(bytes) }
        guard try await products.isActiveSeller(sellerID) else {
            throw KeyCatError.notFound("seller", sellerID)
        }
        try await takeImageUploads(imageData.count, by: principal)
        var stored: [ProductImage] = []
        for bytes in imageData { stored.append(try await images.store(bytes)) }
        return try await products.insert(
            draft, sellerID: sellerID, images: stored, at: now,
            audit: auditEntry(principal, "product.create", nil, draft.title, now))
    }

    /// Takes a token for each of `count` images `principal` is about to store (all or none, in
    /// one take), before any is stored:
    /// past the seller's budget, `rateLimited` (429, `retry_after`) and nothing written.
    /// Operators' uploads are not counted.
    func takeImageUploads(_ count: Int, by principal: Principal) async throws(KeyCatError) {
        guard principal.role != .admin else { return }
        guard count > 0 else { return }
        try await imageUploads.take(count, for: principal.userID)
    }

    /// The listing with `id`, as a buyer sees it: a deleted listing, or one whose seller is
    /// withdrawn or suspended (``Product/isListed``), is `notFound`.
    ///
    /// - Parameter includingUnlisted: also answer a listing that is not deleted but out of the
    ///   catalog with its seller — for its seller's and the operators' own work on it.
    public func product(_ id: ProductID, includingUnlisted: Bool = false) async throws(KeyCatError) -> Product {
        guard let product = try await products.find(id), product.deletedAt == nil, includingUnlisted || product.isListed else {
            throw KeyCatError.notFound("product", id)
        }
        return product
    }

    /// Applies `changes` to a listing. A new `stock` is recorded in the inventory ledger as an
    /// adjustment of the difference (see ``adjustStock(_:by:by:)``).
    ///
    /// A listing that has been paid for or reviewed keeps its category and kind: its reviews,
    /// rating, units sold and bookmarks are about the goods its buyers got, so a seller who turns
    /// a well-reviewed keycap puller into a keyboard lists the keyboard anew. An operator may
    /// still correct either (audited).
    ///
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `versionConflict` when
    ///   the listing changed since `changes.expectedVersion`; `validation` naming the field
    ///   (`delivery_fee` when it sets a fee above ``maximumDeliveryFee``, even the one the
    ///   listing has: a listing above the bound keeps its fee only while nobody sets one);
    ///   `illegalTransition` (context `field`) for a seller's change of the category or kind
    ///   of a listing paid for or reviewed.
    public func update(_ id: ProductID, _ changes: ProductChanges, by principal: Principal) async throws(KeyCatError) -> Product {
        try changes.validateFields()
        if let fee = changes.deliveryFee { try ProductDraft.checkDeliveryFee(fee, atMost: maximumDeliveryFee) }
        let current = try await product(id, includingUnlisted: true)
        try authorizeChange(of: current, by: principal)
        let now = clock.now()
        let expected = changes.expectedVersion ?? current.version
        guard expected == current.version else {
            throw KeyCatError(.versionConflict, "product \(id) changed since version \(expected); read it again",
                              context: ["current_version": String(current.version)])
        }
        let updated = try changes.applied(to: current, at: now)
        let refusal = try sameGoodsRefusal(current, updated, by: principal)
        // A new stock is an adjustment of the difference in the inventory ledger, under the
        // caller's name, and audited whoever makes it.
        var audit = auditEntry(principal, "product.update", id, "", now)
        if updated.stock != current.stock {
            audit = AuditEntry(actor: principal.auditActor, action: "product.update", target: "product:\(id)",
                               detail: "stock \(current.stock) → \(updated.stock)", at: now)
        }
        return try await products.update(updated, expectedVersion: expected, unlessPaidFor: refusal, at: now, audit: audit)
    }

    /// Soft-deletes a listing; with `expectedVersion` (the version the caller read, as an HTTP
    /// `If-Match` names it), only if no change landed since, checked in the delete's own write.
    ///
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `notFound` if gone;
    ///   `versionConflict` when its version is no longer `expectedVersion`.
    public func delete(_ id: ProductID, expectedVersion: Int? = nil, by principal: Principal) async throws(KeyCatError) {
        let current = try await product(id, includingUnlisted: true)
        try authorizeChange(of: current, by: principal)
        let now = clock.now()
        try await products.delete(id, expectedVersion: expectedVersion, at: now,
                                  audit: auditEntry(principal, "product.delete", id, current.title, now))
    }

    /// One page of listings.
    ///
    /// With a search text (``ProductFilter/text``) the page holds the listings matching it, by
    /// relevance unless another sort is asked for (docs/search.md).
    ///
    /// - Throws: `invalidCursor` for a cursor that was tampered with or made for other filters or
    ///   another sort; `validation` for bad price bounds or tag, or (on `sort`) the relevance
    ///   sort without a search text.
    public func list(_ request: ProductListRequest) async throws(KeyCatError) -> Page<Product> {
        try request.filter.validate()
        if request.sort == .relevance && request.filter.text == nil {
            throw .validation("sort", "sort=relevance needs a search text (q)")
        }
        // What a cursor is bound to, built only for a cursor read or made: most searches' single
        // page has neither.
        lazy var query = Self.cursorQuery(request)
        let position = try request.cursor.map { cursor throws(KeyCatError) in
            try cursors.decode(cursor, query: query)
        }
        try await sweepIfDue()
        let limit = request.limit.value
        guard request.filter.text != nil || request.filter.tag != nil else {
            var items = try await products.list(request.filter, sort: request.sort, after: position, limit: limit + 1)
            var nextCursor: String?
            if items.count > limit {
                items.removeLast()
                let last = items[items.count - 1]
                nextCursor = cursors.encode(CursorPosition(sortKey: request.sort.key(of: last), id: last.id.rawValue), query: query)
            }
            return Page(items: items, nextCursor: nextCursor)
        }
        let page = try await products.search(request.filter, sort: request.sort, after: position, limit: limit + 1)
        var hits = page.hits
        var nextCursor: String?
        if hits.count > limit {
            hits.removeLast()
            let last = hits[hits.count - 1]
            nextCursor = cursors.encode(CursorPosition(sortKey: last.key, id: last.product.id.rawValue), query: query)
        } else if let walkedTo = page.walkedTo {
            nextCursor = cursors.encode(walkedTo, query: query)
        }
        return Page(items: hits.map(\.product), nextCursor: nextCursor)
    }

    /// A cursor that resumes `request`'s list right after `product`, as if the page ending with
    /// it had just been read: for deep links, exports and tools that start mid-list.
    ///
    /// - Throws: `validation` on `sort` for a search by relevance, whose place in the order the
    ///   store computes from the query: resume it with a page's `nextCursor`.
    public func cursor(resumingAfter product: Product, in request: ProductListRequest) throws(KeyCatError) -> String {
        guard request.sort != .relevance else {
            throw .validation("sort", "a relevance search resumes only from a page's next cursor")
        }
        return cursors.encode(CursorPosition(sortKey: request.sort.key(of: product), id: product.id.rawValue),
                       query: Self.cursorQuery(request))
    }

    /// What a products cursor is bound to: the list, its sort and its filters.
    private static func cursorQuery(_ request: ProductListRequest) -> String {
        if request.filter == ProductFilter(), let query = unfilteredCursorQueries[request.sort] { return query }
        return cursorQuery(request.sort, request.filter)
    }

    private static func cursorQuery(_ sort: ProductSort, _ filter: ProductFilter) -> String {
        "products|\(sort.rawValue)|\(filter.fingerprint)"
    }

    /// The texts of the unfiltered lists, where most browsing happens, built once: building one
    /// costs a few microseconds of a 50 µs page (`keycat-bench --only catalog`).
    private static let unfilteredCursorQueries = Dictionary(uniqueKeysWithValues: ProductSort.allCases.map {
        ($0, cursorQuery($0, ProductFilter()))
    })

    /// Ends lapsed discounts now, whatever the schedule; returns how many listings changed.
    @discardableResult
    public func sweepLapsedDiscounts() async throws(KeyCatError) -> Int {
        let now = clock.now()
        let (changed, nextEnd) = try await products.sweepLapsedDiscounts(at: now)
        sweep.swept(at: now, nextEnd: nextEnd)
        return changed
    }

    private func sweepIfDue() async throws(KeyCatError) {
        if sweepsLapsedDiscounts && sweep.isDue(at: clock.now()) { try await sweepLapsedDiscounts() }
    }

    /// The refusal of a seller's change of what a listing is, its category or kind, once it has
    /// been paid for or reviewed (see ``update(_:_:by:)``): thrown here when it has reviews, and
    /// returned for the update to throw when an order of it was ever paid. That is checked in the
    /// update's own transaction: until 2026-12-02 it was read before, and a payment landing in
    /// between let the change through. Nil when the change needs no check.
    private func sameGoodsRefusal(_ current: Product, _ updated: Product, by principal: Principal) throws(KeyCatError) -> KeyCatError? {
        let field = updated.category != current.category ? "category" : updated.kind != current.kind ? "kind" : nil
        guard let field, principal.role != .admin else { return nil }
        let refusal = KeyCatError(.illegalTransition,
                                  "product \(current.id) has been paid for or reviewed, so its \(field) stays: list the other goods as a new product",
                                  context: ["field": field])
        guard current.ratingCount == 0 else { throw refusal }
        return refusal
    }

    func authorizeChange(of product: Product, by principal: Principal) throws(KeyCatError) {
        guard principal.role == .admin || principal.userID == product.sellerID else {
            throw KeyCatError(.notOwner, "only the product's seller or an admin may change it")
        }
    }

    /// Admin actions are audited; a seller editing their own listing is ordinary use (but a
    /// change of stock by hand always is: see ``update(_:_:by:)``).
    func auditEntry(_ principal: Principal, _ action: String, _ id: ProductID?, _ detail: String, _ now: Date) -> AuditEntry? {
        guard principal.role == .admin else { return nil }
        return AuditEntry(actor: principal.auditActor, action: action,
                          target: id.map { "product:\($0)" } ?? "", detail: detail, at: now)
    }
}

/// When the next discount sweep is due: when a known discount end has passed, and at least
/// once a minute (another process may have added an earlier one).
final class DiscountSweepSchedule: Sendable {
    private let nextCheck = Mutex<Date>(.distantPast)
    private static let recheckInterval: TimeInterval = 60

    func isDue(at now: Date) -> Bool { nextCheck.withLock { now >= $0 } }

    func swept(at now: Date, nextEnd: Date?) {
        let recheck = now.addingTimeInterval(Self.recheckInterval)
        nextCheck.withLock { $0 = min(recheck, nextEnd ?? recheck) }
    }
}
