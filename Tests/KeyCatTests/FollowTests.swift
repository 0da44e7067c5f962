import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Follows")
struct FollowTests {
    @Test("following and unfollowing are idempotent and keep both users' counts", arguments: TestStore.allCases)
    func idempotent(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let fan = try shop.user()
            let star = try shop.user(.seller)
            let follows = shop.keycat.follows
            #expect(try follows.follow(star.userID, by: fan))
            #expect(try !follows.follow(star.userID, by: fan))
            #expect(try follows.isFollowing(star.userID, by: fan))
            #expect(try !follows.isFollowing(fan.userID, by: star))
            #expect(try follows.counts(of: star.userID) == FollowCounts(followers: 1, following: 0))
            #expect(try follows.counts(of: fan.userID) == FollowCounts(followers: 0, following: 1))
            #expect(try follows.unfollow(star.userID, by: fan))
            #expect(try !follows.unfollow(star.userID, by: fan))
            #expect(try follows.counts(of: star.userID) == FollowCounts(followers: 0, following: 0))
            #expect(try follows.counts(of: fan.userID) == FollowCounts(followers: 0, following: 0))
        }
    }

    @Test("following or unfollowing oneself is forbidden", arguments: TestStore.allCases)
    func oneself(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let user = try shop.user()
            expectError(.forbidden) { try shop.keycat.follows.follow(user.userID, by: user) }
            expectError(.forbidden) { try shop.keycat.follows.unfollow(user.userID, by: user) }
        }
    }

    @Test("following a missing or withdrawn user is not found; unfollowing them still works", arguments: TestStore.allCases)
    func missingOrWithdrawn(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let fan = try shop.user()
            expectError(.notFound) { try shop.keycat.follows.follow(UserID(9_999), by: fan) }
            let leaving = try shop.user()
            try shop.keycat.follows.follow(leaving.userID, by: fan)
            try shop.keycat.accounts.withdraw(by: leaving)
            let gone = try shop.user()
            try shop.keycat.accounts.withdraw(by: gone)
            expectError(.notFound) { try shop.keycat.follows.follow(gone.userID, by: fan) }
            // A withdrawn follower cannot follow either (its access token may still verify).
            expectError(.notFound) { try shop.keycat.follows.follow(fan.userID, by: gone) }
            // The old follow stays listed, marked, until removed.
            let following = try shop.keycat.follows.following(of: fan.userID).items
            #expect(following.map(\.userID) == [leaving.userID] && following[0].isWithdrawn)
            #expect(try shop.keycat.follows.unfollow(leaving.userID, by: fan))
            #expect(try shop.keycat.follows.counts(of: fan.userID).following == 0)
            expectError(.notFound) { try shop.keycat.follows.counts(of: UserID(9_999)) }
        }
    }

    @Test("followers and following walk newest first, each exactly once", arguments: TestStore.allCases)
    func lists(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let star = try shop.user(.seller)
            var fans: [Principal] = []
            for index in 0..<7 {
                if index % 3 == 0 { shop.clock.advance(by: 1) }  // ties by id
                let fan = try shop.user()
                try shop.keycat.follows.follow(star.userID, by: fan)
                fans.append(fan)
            }
            var seen: [UserID] = []
            var cursor: String?
            repeat {
                let page = try shop.keycat.follows.followers(of: star.userID, limit: try PageLimit(3), cursor: cursor)
                seen += page.items.map(\.userID)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == fans.reversed().map(\.userID))

            let following = try shop.keycat.follows.following(of: fans[0].userID)
            #expect(following.items.map(\.userID) == [star.userID] && following.nextCursor == nil)
            #expect(try shop.keycat.follows.following(of: star.userID).items.isEmpty)

            let page = try shop.keycat.follows.followers(of: star.userID, limit: try PageLimit(1))
            expectError(.invalidCursor) { try shop.keycat.follows.following(of: star.userID, cursor: page.nextCursor) }
            expectError(.invalidCursor) { try shop.keycat.follows.followers(of: fans[0].userID, cursor: page.nextCursor) }
        }
    }
}
