import Foundation

/// A product a user bookmarked, as their bookmark list shows it.
public struct Bookmark: Sendable, Hashable {
    /// The bookmark's row id: the list's tie-breaker.
    public var id: Int64
    /// The product as it is now. A deleted product stays in the list, marked by ``isDeleted``,
    /// until the user removes the bookmark.
    public var product: Product
    public var bookmarkedAt: Date

    public init(id: Int64, product: Product, bookmarkedAt: Date) {
        self.id = id
        self.product = product
        self.bookmarkedAt = bookmarkedAt
    }

    /// Whether the product was deleted since it was bookmarked.
    public var isDeleted: Bool { product.deletedAt != nil }
}

/// Where bookmarks are kept, with the products' `bookmarkCount`. Implementation:
/// `SQLBookmarkRepository`.
public protocol BookmarkRepository: Sendable {
    /// Adds the bookmark unless it exists; when added, the product's `bookmarkCount` goes up in
    /// the same transaction. Returns whether it was added.
    ///
    /// - Throws: ``KeyCatError/Code/notFound`` when the product is missing or deleted, or the
    ///   user is missing or withdrawn.
    func add(user: UserID, product: ProductID, at now: Date) async throws(KeyCatError) -> Bool

    /// Removes the bookmark if it exists; when removed, the product's `bookmarkCount` goes down
    /// in the same transaction. Returns whether it was removed.
    func remove(user: UserID, product: ProductID) async throws(KeyCatError) -> Bool

    /// Whether `user` bookmarked `product`.
    func contains(user: UserID, product: ProductID) async throws(KeyCatError) -> Bool

    /// Up to `limit` of `user`'s bookmarks, newest first, strictly after `position`.
    func list(user: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Bookmark]
}
