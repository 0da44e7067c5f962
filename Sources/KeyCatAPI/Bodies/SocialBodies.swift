import Foundation
import KeyCat

/// The JSON of a review.
public struct ReviewBody: Encodable, Sendable, Hashable {
    public var id: Int64
    public var productID: Int64
    public var authorID: Int64
    public var authorNick: String
    public var rating: Int
    public var content: String
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, productID = "product_id", authorID = "author_id", authorNick = "author_nick", rating, content
        case createdAt = "created_at"
    }

    public init(_ review: Review) {
        id = review.id.rawValue
        productID = review.productID.rawValue
        authorID = review.authorID.rawValue
        authorNick = review.authorNick
        rating = review.rating
        content = review.content
        createdAt = review.createdAt
    }
}

/// The JSON of one bookmark: the listing (even when it was deleted since) and when.
public struct BookmarkBody: Encodable, Sendable, Hashable {
    public var product: ProductBody
    public var productDeleted: Bool
    public var bookmarkedAt: Date

    enum CodingKeys: String, CodingKey {
        case product, productDeleted = "product_deleted", bookmarkedAt = "bookmarked_at"
    }

    public init(_ bookmark: Bookmark, at now: Date = Date()) {
        product = ProductBody(bookmark.product, at: now)
        productDeleted = bookmark.isDeleted
        bookmarkedAt = bookmark.bookmarkedAt
    }
}

/// The JSON of one entry of a followers or following list.
public struct FollowEntryBody: Encodable, Sendable, Hashable {
    public var userID: Int64
    public var nick: String
    public var profileImage: String?
    public var withdrawn: Bool
    public var followedAt: Date

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", nick, profileImage = "profile_image", withdrawn, followedAt = "followed_at"
    }

    public init(_ entry: FollowEntry) {
        userID = entry.userID.rawValue
        nick = entry.nick
        profileImage = entry.profileImage
        withdrawn = entry.isWithdrawn
        followedAt = entry.followedAt
    }
}

/// The JSON of a user's follower and following counts.
public struct FollowCountsBody: Encodable, Sendable, Hashable {
    public var followers: Int
    public var following: Int

    public init(_ counts: FollowCounts) {
        followers = counts.followers
        following = counts.following
    }
}
