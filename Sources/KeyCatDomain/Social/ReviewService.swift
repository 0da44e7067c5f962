import Foundation

/// Reviews (architecture §2): buyers who paid for a product rate it once; the author or an admin
/// deletes the review; anyone reads a product's reviews or an author's, newest first.
///
/// The product's `ratingCount`, `ratingSum` and rating score (which the `rating` sort reads)
/// change in the same transaction as the review, so the sort is always exact.
public struct ReviewService: Sendable {
    private let reviews: any ReviewRepository
    private let products: any ProductRepository
    private let purchases: any PurchaseHistory
    private let paging: NewestFirstPaging
    private let clock: any WallClock

    /// - Parameter purchases: answers whether a buyer has a paid, not fully refunded order of
    ///   the product; see ``PurchaseHistory``.
    public init(reviews: any ReviewRepository, products: any ProductRepository, purchases: any PurchaseHistory,
                cursors: any PageCursorCodec, clock: any WallClock) {
        self.reviews = reviews
        self.products = products
        self.purchases = purchases
        self.paging = NewestFirstPaging(cursors: cursors)
        self.clock = clock
    }

    /// Writes the caller's review of `productID`.
    ///
    /// Checks run in this order: the form, the product, the purchase, then uniqueness.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` on `rating` (1–5) or `content` (10–1000
    ///   characters after trimming); ``KeyCatError/Code/notFound`` when the product is missing
    ///   or deleted, or the caller's account is withdrawn; ``KeyCatError/Code/forbidden`` when
    ///   the caller sells it, has no delivered, not cancelled nor fully refunded order of it, or
    ///   an operator removed their review of it;
    ///   ``KeyCatError/Code/duplicate`` (409) when the caller already reviewed it.
    public func write(_ form: ReviewForm, of productID: ProductID, by principal: Principal) async throws(KeyCatError) -> Review {
        let form = try form.validated()
        guard let product = try await products.find(productID), product.deletedAt == nil else {
            throw KeyCatError.notFound("product", productID)
        }
        // A seller's praise of their own listing is no review.
        guard product.sellerID != principal.userID else {
            throw KeyCatError(.forbidden, "a seller cannot review their own listing", context: ["product_id": "\(productID)"])
        }
        guard try await purchases.hasEligiblePurchase(buyer: principal.userID, product: productID) else {
            throw Self.unsupported(productID)
        }
        do throws(KeyCatError) {
            return try await reviews.insert(form, product: productID, author: principal.userID, at: clock.now())
        } catch where error.code == .duplicate {
            throw KeyCatError(.duplicate, "you already reviewed this product", context: ["product_id": "\(productID)"])
        }
    }

    /// The review with `id`.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when there is none.
    public func review(_ id: ReviewID) async throws(KeyCatError) -> Review {
        guard let review = try await reviews.find(id) else { throw KeyCatError.notFound("review", id) }
        return review
    }

    /// Deletes a review and takes it out of the product's rating. An admin's delete is written
    /// to the audit log (`review.delete`) in the same transaction, and stands: its author may not
    /// review the product again (until 2026-12-01 they could post the removed review again at
    /// once). An author who deletes their own review may write another.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when it is gone; ``KeyCatError/Code/notOwner``
    ///   unless the caller is its author or an admin.
    public func delete(_ id: ReviewID, by principal: Principal) async throws(KeyCatError) {
        let review = try await review(id)
        try principal.requireOwnerOrAdmin(review.authorID, of: "review")
        let now = clock.now()
        // An operator's removal of someone else's review; an operator deleting their own is its author.
        let audit = principal.role == .admin && principal.userID != review.authorID
            ? AuditEntry(actor: principal.auditActor, action: "review.delete", target: "review:\(id)",
                         detail: "product:\(review.productID) by user:\(review.authorID), \(review.rating) stars",
                         at: now)
            : nil
        try await reviews.delete(id, audit: audit, at: now)
    }

    /// A page of `productID`'s reviews, newest first.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when the product is missing or deleted;
    ///   ``KeyCatError/Code/invalidCursor`` for a cursor from another list.
    public func reviews(of productID: ProductID, limit: PageLimit = .default, cursor: String? = nil)
        async throws(KeyCatError) -> Page<Review>
    {
        guard let product = try await products.find(productID), product.deletedAt == nil else {
            throw KeyCatError.notFound("product", productID)
        }
        let query = "reviews|product=\(productID)"
        let position = try paging.position(cursor, query: query)
        let rows = try await reviews.list(product: productID, after: position, limit: limit.value + 1)
        return paging.page(rows, limit: limit, query: query, time: \.createdAt, id: \.id.rawValue)
    }

    /// A page of the reviews `authorID` wrote, newest first.
    ///
    /// - Throws: ``KeyCatError/Code/invalidCursor`` for a cursor from another list.
    public func reviews(by authorID: UserID, limit: PageLimit = .default, cursor: String? = nil)
        async throws(KeyCatError) -> Page<Review>
    {
        let query = "reviews|author=\(authorID)"
        let position = try paging.position(cursor, query: query)
        let rows = try await reviews.list(author: authorID, after: position, limit: limit.value + 1)
        return paging.page(rows, limit: limit, query: query, time: \.createdAt, id: \.id.rawValue)
    }
}

extension ReviewService {
    /// The refusal of a review no purchase supports, from the service's check or from the
    /// store's own in the insert's transaction.
    package static func unsupported(_ product: ProductID) -> KeyCatError {
        KeyCatError(.forbidden, "only a buyer who received this product and confirmed its receipt may review it",
                    context: ["product_id": "\(product)"])
    }

    /// The refusal of a review whose author's earlier review of the product an operator removed.
    package static func removedByOperator(_ product: ProductID) -> KeyCatError {
        KeyCatError(.forbidden, "the shop's operators removed your review of this product; it is not reviewed again",
                    context: ["product_id": "\(product)"])
    }
}
