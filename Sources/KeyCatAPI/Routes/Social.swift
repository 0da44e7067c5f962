import Foundation
import KeyCat

/// Bookmarks: idempotent `PUT`/`DELETE` on a product's bookmark, whether it is set, and the
/// caller's list.
enum BookmarkRoutes {
    static let routes: [Route] = [
        Route(.get, "/products/{id}/bookmark", .signedIn) { context in
            await .json(BookmarkState(bookmarked: try context.keycat.bookmarks.isBookmarked(context.id(), by: context.principal())))
        },
        Route(.put, "/products/{id}/bookmark", .signedIn) { context in
            _ = try await context.keycat.bookmarks.add(context.id(), by: context.principal())
            return .json(BookmarkState(bookmarked: true))
        },
        Route(.delete, "/products/{id}/bookmark", .signedIn) { context in
            _ = try await context.keycat.bookmarks.remove(context.id(), by: context.principal())
            return .json(BookmarkState(bookmarked: false))
        },
        Route(.get, "/me/bookmarks", .signedIn, query: pageQuery) { context in
            let page = try await context.keycat.bookmarks.bookmarks(by: context.principal(), limit: context.limit(), cursor: context.cursor())
            let now = context.now
            return .json(PageBody(page) { BookmarkBody($0, at: now) })
        },
    ]
}

/// Follows: idempotent `PUT`/`DELETE` on following a user, whether the caller does, counts,
/// and the followers and following lists.
enum FollowRoutes {
    static let routes: [Route] = [
        Route(.get, "/users/{id}/follow", .signedIn) { context in
            await .json(FollowState(following: try context.keycat.follows.isFollowing(context.id(), by: context.principal())))
        },
        Route(.put, "/users/{id}/follow", .signedIn) { context in
            _ = try await context.keycat.follows.follow(context.id(), by: context.principal())
            return .json(FollowState(following: true))
        },
        Route(.delete, "/users/{id}/follow", .signedIn) { context in
            _ = try await context.keycat.follows.unfollow(context.id(), by: context.principal())
            return .json(FollowState(following: false))
        },
        Route(.get, "/users/{id}/follow-counts", .anyone) { context in
            await .json(FollowCountsBody(try context.keycat.follows.counts(of: context.id())))
        },
        Route(.get, "/users/{id}/followers", .anyone, query: pageQuery) { context in
            let page = try await context.keycat.follows.followers(of: context.id(), limit: context.limit(), cursor: context.cursor())
            return .json(PageBody(page, FollowEntryBody.init))
        },
        Route(.get, "/users/{id}/following", .anyone, query: pageQuery) { context in
            let page = try await context.keycat.follows.following(of: context.id(), limit: context.limit(), cursor: context.cursor())
            return .json(PageBody(page, FollowEntryBody.init))
        },
    ]
}

struct BookmarkState: Encodable, Sendable {
    var bookmarked: Bool
}

struct FollowState: Encodable, Sendable {
    var following: Bool
}
