import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Social counters under concurrency")
struct SocialConcurrencyTests {
    @Test("many tasks toggling the same bookmark and follow at once leave every counter equal to its rows",
          arguments: TestStore.allCases)
    func togglesAtOnce(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop async throws in
            let product = try await shop.product()
            let star = try await shop.user(.seller)
            var users: [Principal] = []
            for _ in 0..<12 { users.append(try await shop.user()) }
            let bookmarks = shop.keycat.bookmarks
            let follows = shop.keycat.follows
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    // Two tasks per user race on the same rows, and every user on the same
                    // product and followee: which toggle lands last is up to the scheduler.
                    for lane in 0..<2 {
                        group.addTask {
                            for round in 0..<15 {
                                if (round + lane) % 2 == 0 {
                                    try await bookmarks.add(product.id, by: user)
                                    try await follows.follow(star.userID, by: user)
                                } else {
                                    try await bookmarks.remove(product.id, by: user)
                                    try await follows.unfollow(star.userID, by: user)
                                }
                                await Task.yield()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            var bookmarked = 0, following = 0
            for user in users {
                if try await bookmarks.isBookmarked(product.id, by: user) { bookmarked += 1 }
                if try await follows.isFollowing(star.userID, by: user) {
                    following += 1
                    await #expect(try follows.counts(of: user.userID).following == 1)
                } else {
                    await #expect(try follows.counts(of: user.userID).following == 0)
                }
            }
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == bookmarked)
            await #expect(try follows.counts(of: star.userID).followers == following)
            let health = try await shop.keycat.checkHealth()
            #expect(health.invariantProblems.isEmpty, "\(health.invariantProblems)")
        }
    }
}
