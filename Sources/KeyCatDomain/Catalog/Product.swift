import Foundation

/// A seller's listing, as stored.
public struct Product: Sendable, Hashable, Identifiable {
    public var id: ProductID
    public var sellerID: UserID
    public var kind: ProductKind
    public var category: ProductCategory
    public var title: String
    public var content: String
    public var pricing: Pricing
    public var delivery: Delivery
    /// Units that can still be sold.
    public var stock: Int
    /// Image references, in display order (at most 5).
    public var images: [ProductImage]
    public var spec: KeyboardSpec
    /// Its tags, at most 10 (``ProductTags``).
    public var tags: [String]
    /// The number of reviews and the sum of their ratings, kept with each review.
    public var ratingCount: Int
    public var ratingSum: Int
    /// The number of users who bookmarked it.
    public var bookmarkCount: Int
    /// Bumped on every change: an update must name the version it read.
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// Set when the listing was deleted (soft delete).
    public var deletedAt: Date?
    /// Whether the listing is in the catalog: false once deleted, and while its seller is
    /// withdrawn or suspended. An unlisted listing is in no list, has no detail page and cannot
    /// be carted or bought.
    public var isListed: Bool

    public init(
        id: ProductID, sellerID: UserID, kind: ProductKind, category: ProductCategory,
        title: String, content: String, pricing: Pricing, delivery: Delivery, stock: Int,
        images: [ProductImage], spec: KeyboardSpec, ratingCount: Int = 0, ratingSum: Int = 0,
        bookmarkCount: Int = 0, version: Int = 1, createdAt: Date, updatedAt: Date, deletedAt: Date? = nil,
        isListed: Bool = true, tags: [String] = []
    ) {
        self.id = id
        self.sellerID = sellerID
        self.kind = kind
        self.category = category
        self.title = title
        self.content = content
        self.pricing = pricing
        self.delivery = delivery
        self.stock = stock
        self.images = images
        self.spec = spec
        self.ratingCount = ratingCount
        self.ratingSum = ratingSum
        self.bookmarkCount = bookmarkCount
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.isListed = isListed
        self.tags = tags
    }

    /// The average rating, or nil without reviews.
    public var averageRating: Double? {
        ratingCount == 0 ? nil : Double(ratingSum) / Double(ratingCount)
    }

    /// The price a buyer pays at `now`.
    public func sellingPrice(at now: Date) -> Money { pricing.sellingPrice(at: now) }
}

/// A stored image: its content address and format.
public struct ProductImage: Sendable, Hashable, Codable {
    /// The SHA-256 of the bytes, lowercase hex.
    public var sha256: String
    public var format: ImageFormat

    public init(sha256: String, format: ImageFormat) {
        self.sha256 = sha256
        self.format = format
    }

    /// The file name in the image store, e.g. `3a7b…e1.png`.
    public var fileName: String { "\(sha256).\(format.rawValue)" }

    /// The image a store's file name names: 64 lowercase hex digits, a dot and a known
    /// extension; nil for anything else (so `../` and the like never name a file).
    public init?(fileName: some StringProtocol) {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let format = ImageFormat(rawValue: String(parts[1]))
        else { return nil }
        self.init(sha256: String(parts[0]), format: format)
    }
}

/// The image formats a listing may carry, recognised by their bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case jpeg = "jpg", png, webp, gif
}
