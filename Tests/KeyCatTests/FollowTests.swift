import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Follows")
struct FollowTests {
    @Test("following and unfollowing are idempotent and keep both users' counts", arguments: TestStore.allCases)
    func idempotent(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let fan = try await shop.user()
            let star = try await shop.user(.seller)
            let follows = shop.keycat.follows
            await #expect(try follows.follow(star.userID, by: fan))
            await #expect(try !follows.follow(star.userID, by: fan))
            await #expect(try follows.isFollowing(star.userID, by: fan))
            await #expect(try !follows.isFollowing(fan.userID, by: star))
            await #expect(try follows.counts(of: star.userID) == FollowCounts(followers: 1, following: 0))
            await #expect(try follows.counts(of: fan.userID) == FollowCounts(followers: 0, following: 1))
            await #expect(try follows.unfollow(star.userID, by: fan))
            await #expect(try !follows.unfollow(star.userID, by: fan))
            await #expect(try follows.counts(of: star.userID) == FollowCounts(followers: 0, following: 0))
            await #expect(try follows.counts(of: fan.userID) == FollowCounts(followers: 0, following: 0))
        }
    }

    @Test("following or unfollowing oneself is forbidden", arguments: TestStore.allCases)
    func oneself(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let user = try await shop.user()
            await expectError(.forbidden) { try await shop.keycat.follows.follow(user.userID, by: user) }
            await expectError(.forbidden) { try await shop.keycat.follows.unfollow(user.userID, by: user) }
        }
    }

    @Test("following a missing or withdrawn user is not found; unfollowing them still works", arguments: TestStore.allCases)
    func missingOrWithdrawn(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let fan = try await shop.user()
            await expectError(.notFound) { try await shop.keycat.follows.follow(UserID(9_999), by: fan) }
            let leaving = try await shop.user()
            try await shop.keycat.follows.follow(leaving.userID, by: fan)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: leaving)
            let gone = try await shop.user()
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: gone)
            await expectError(.notFound) { try await shop.keycat.follows.follow(gone.userID, by: fan) }
            // A withdrawn follower cannot follow either (its access token may still verify).
            await expectError(.notFound) { try await shop.keycat.follows.follow(fan.userID, by: gone) }
            // The old follow stays listed, marked, until removed.
            let following = try await shop.keycat.follows.following(of: fan.userID).items
            #expect(following.map(\.userID) == [leaving.userID] && following[0].isWithdrawn)
            await #expect(try shop.keycat.follows.unfollow(leaving.userID, by: fan))
            await #expect(try shop.keycat.follows.counts(of: fan.userID).following == 0)
            await expectError(.notFound) { try await shop.keycat.follows.counts(of: UserID(9_999)) }
        }
    }

    @Test("followers and following walk newest first, each exactly once", arguments: TestStore.allCases)
    func lists(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let star = try await shop.user(.seller)
            var fans: [Principal] = []
            for index in 0..<7 {
                if index % 3 == 0 { shop.clock.advance(by: 1) }  // ties by id
                let fan = try await shop.user()
                try await shop.keycat.follows.follow(star.userID, by: fan)
                fans.append(fan)
            }
            var seen: [UserID] = []
            var cursor: String?
            repeat {
                let page = try await shop.keycat.follows.followers(of: star.userID, limit: try PageLimit(3), cursor: cursor)
                seen += page.items.map(\.userID)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == fans.reversed().map(\.userID))

            let following = try await shop.keycat.follows.following(of: fans[0].userID)
            #expect(following.items.map(\.userID) == [star.userID] && following.nextCursor == nil)
            await #expect(try shop.keycat.follows.following(of: star.userID).items.isEmpty)

            let page = try await shop.keycat.follows.followers(of: star.userID, limit: try PageLimit(1))
            await expectError(.invalidCursor) { try await shop.keycat.follows.following(of: star.userID, cursor: page.nextCursor) }
            await expectError(.invalidCursor) { try await shop.keycat.follows.followers(of: fans[0].userID, cursor: page.nextCursor) }
        }
    }
}
