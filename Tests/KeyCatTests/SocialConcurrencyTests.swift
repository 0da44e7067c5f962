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
            let product = try shop.product()
            let star = try shop.user(.seller)
            let users = try (0..<12).map { _ in try shop.user() }
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
                                    try bookmarks.add(product.id, by: user)
                                    try follows.follow(star.userID, by: user)
                                } else {
                                    try bookmarks.remove(product.id, by: user)
                                    try follows.unfollow(star.userID, by: user)
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
                if try bookmarks.isBookmarked(product.id, by: user) { bookmarked += 1 }
                if try follows.isFollowing(star.userID, by: user) {
                    following += 1
                    #expect(try follows.counts(of: user.userID).following == 1)
                } else {
                    #expect(try follows.counts(of: user.userID).following == 0)
                }
            }
            #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == bookmarked)
            #expect(try follows.counts(of: star.userID).followers == following)
            let health = try shop.keycat.checkHealth()
            #expect(health.invariantProblems.isEmpty, "\(health.invariantProblems)")
        }
    }
}
