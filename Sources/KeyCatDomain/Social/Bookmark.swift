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

/// Where bookmarks are kept: a user's toggle of a product (``ToggleRepository``), whose count is
/// the product's `bookmarkCount`, up when a bookmark is added and down when it is removed, in
/// the same transaction. Implementation: `SQLBookmarkRepository`.
///
/// ``ToggleRepository/add(_:by:at:)`` throws ``KeyCatError/Code/notFound`` when the product is
/// missing or deleted, or the user is missing or withdrawn.
public protocol BookmarkRepository: ToggleRepository where Target == ProductID {
    /// Up to `limit` of `user`'s bookmarks, newest first, strictly after `position`.
    func list(user: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Bookmark]
}
