import Foundation

/// Identifies a review.
public struct ReviewID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A buyer's review of a product they bought (architecture §2): a rating of 1–5 stars and 10–1000
/// characters of text. One per buyer and product.
public struct Review: Sendable, Hashable, Identifiable {
    public let id: ReviewID
    public var productID: ProductID
    public var authorID: UserID
    /// The author's nick when the review was read, for display.
    public var authorNick: String
    /// 1–5 stars.
    public var rating: Int
    public var content: String
    public var createdAt: Date

    public init(id: ReviewID, productID: ProductID, authorID: UserID, authorNick: String, rating: Int,
                content: String, createdAt: Date) {
        self.id = id
        self.productID = productID
        self.authorID = authorID
        self.authorNick = authorNick
        self.rating = rating
        self.content = content
        self.createdAt = createdAt
    }
}

/// What a buyer submits: a rating and a text, validated by ``validated()``.
public struct ReviewForm: Sendable, Hashable {
    public static let ratingRange = 1...5
    public static let contentLength = 10...1000
    /// A review's text rules: 10–1000 characters, at most 4,000 bytes, no format characters but
    /// the joiner emoji are made of (``TextRules``).
    public static let contentField = TextRules.Field("content", characters: contentLength, formatCharacters: .refusedButJoiner)

    public var rating: Int
    public var content: String

    public init(rating: Int, content: String) {
        self.rating = rating
        self.content = content
    }

    /// The form with its content trimmed.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` on `rating` outside 1–5, or on `content` that,
    ///   trimmed, is not 10–1000 characters (counted as people see them: grapheme clusters).
    public func validated() throws(KeyCatError) -> ReviewForm {
        guard Self.ratingRange.contains(rating) else {
            throw KeyCatError.validation("rating", "a rating is 1 to 5 stars, got \(rating)")
        }
        return ReviewForm(rating: rating, content: try TextRules.text(content, Self.contentField))
    }
}
