import Foundation

/// Where reviews are kept, together with the counters they drive. Implementation:
/// `SQLReviewRepository`.
public protocol ReviewRepository: Sendable {
    /// Stores a review and, in the same transaction, adds it to the product's `ratingCount`,
    /// `ratingSum` and rating score.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when the product is missing or deleted, or the
    ///   author is missing or withdrawn; ``KeyCatError/Code/duplicate`` when the author already
    ///   reviewed the product.
    func insert(_ form: ReviewForm, product: ProductID, author: UserID, at now: Date) async throws(KeyCatError) -> Review

    /// The review with `id`, or nil.
    func find(_ id: ReviewID) async throws(KeyCatError) -> Review?

    /// Deletes a review and takes it out of its product's counters in the same transaction,
    /// recording `audit` (if any) and the `review.removed` event there too.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when it is already gone.
    func delete(_ id: ReviewID, audit: AuditEntry?, at now: Date) async throws(KeyCatError)

    /// Up to `limit` reviews of `product`, newest first, strictly after `position`.
    func list(product: ProductID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Review]

    /// Up to `limit` reviews by `author`, newest first, strictly after `position`.
    func list(author: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Review]
}
