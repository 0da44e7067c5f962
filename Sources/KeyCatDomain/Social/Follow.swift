import Foundation

/// One side of a follow, as the followers and following lists show it.
public struct FollowEntry: Sendable, Hashable {
    /// The follow's row id: the list's tie-breaker.
    public var id: Int64
    /// The other user: the follower in a followers list, the followee in a following list.
    public var userID: UserID
    public var nick: String
    public var profileImage: String?
    /// Whether that account was withdrawn. Its follows stay (and are counted) until removed.
    public var isWithdrawn: Bool
    public var followedAt: Date

    public init(id: Int64, userID: UserID, nick: String, profileImage: String?, isWithdrawn: Bool, followedAt: Date) {
        self.id = id
        self.userID = userID
        self.nick = nick
        self.profileImage = profileImage
        self.isWithdrawn = isWithdrawn
        self.followedAt = followedAt
    }
}

/// How many follow a user and how many they follow: counters kept on the user's row.
public struct FollowCounts: Sendable, Hashable {
    public var followers: Int
    public var following: Int

    public init(followers: Int, following: Int) {
        self.followers = followers
        self.following = following
    }
}

/// Which list of follows to read.
public enum FollowDirection: String, Sendable, Hashable, CaseIterable {
    /// Who follows the user.
    case followers
    /// Whom the user follows.
    case following
}

/// Where follows are kept: a follower's toggle of a followee (``ToggleRepository``), whose
/// counts are the followee's follower count and the follower's following count, both moved in
/// the same transaction as the follow. Implementation: `SQLFollowRepository`.
///
/// ``ToggleRepository/add(_:by:at:)`` throws ``KeyCatError/Code/notFound`` when either account
/// is missing or withdrawn.
public protocol FollowRepository: ToggleRepository where Target == UserID {
    /// The counts stored on `user`'s row, or nil when there is no such account.
    func counts(of user: UserID) async throws(KeyCatError) -> FollowCounts?

    /// Up to `limit` follows of `user` in `direction`, newest first, strictly after `position`.
    func list(_ direction: FollowDirection, of user: UserID, after position: CursorPosition?, limit: Int)
        async throws(KeyCatError) -> [FollowEntry]
}
