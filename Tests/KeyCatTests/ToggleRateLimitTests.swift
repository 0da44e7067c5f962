import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The bucket arithmetic and the configuration checks need no store; the budgets in use run on
/// both stores, and two servers sharing one on Postgres.
@Suite("Rate limiting of bookmark and follow toggles")
struct ToggleRateLimitTests {
    @Test("a bucket allows its burst, then refuses with retry_after until the clock refills it", arguments: [
        (1.0, 3, "1"),    // one token a second: a second until the next
        (0.25, 2, "4"),   // one every four seconds
        (10.0, 5, "1"),   // sub-second waits round up to one second
    ])
    func tokenBucket(perSecond: Double, burst: Int, retryAfter: String) async throws {
        let clock = TestClock()
        let limiter = PerUserRateLimiter(limit: try RateLimit(perSecond: perSecond, burst: burst), clock: clock)
        let user = UserID(1)
        for _ in 0..<burst { try await limiter.take(for: user) }
        do {
            try await limiter.take(for: user)
            Issue.record("the bucket should be empty")
        } catch {
            #expect(error.code == .rateLimited)
            #expect(error.context["retry_after"] == retryAfter)
            let response = HTTPErrorResponse(error)
            #expect(response.status == 429 && response.headers["Retry-After"] == retryAfter)
        }
        // Another user has a bucket of their own.
        try await limiter.take(for: UserID(2))
        clock.advance(by: 1 / perSecond)
        try await limiter.take(for: user)
        await expectError(.rateLimited) { try await limiter.take(for: user) }
        // A long quiet spell refills to the burst, never beyond.
        clock.advance(by: 3_600)
        for _ in 0..<burst { try await limiter.take(for: user) }
        await expectError(.rateLimited) { try await limiter.take(for: user) }
    }

    @Test("a rate limit needs a positive rate and a burst of at least one", arguments: [
        (0.0, 1, "rate"), (-1.0, 1, "rate"), (Double.infinity, 1, "rate"), (1.0, 0, "burst"),
    ])
    func invalidLimit(perSecond: Double, burst: Int, field: String) async {
        await expectError(.validation, field: field) { try RateLimit(perSecond: perSecond, burst: burst) }
    }

    @Test("bookmarks and follows share one budget per user, and a refused toggle changes nothing",
          arguments: TestStore.allCases)
    func sharedBudget(_ store: TestStore) async throws {
        try await SocialShop.with(store, rateLimit: try RateLimit(perSecond: 1, burst: 3)) { shop throws in
            let product = try await shop.product()
            let user = try await shop.user()
            let star = try await shop.user()
            try await shop.keycat.bookmarks.add(product.id, by: user)
            try await shop.keycat.bookmarks.remove(product.id, by: user)
            try await shop.keycat.follows.follow(star.userID, by: user)
            await expectError(.rateLimited) { try await shop.keycat.bookmarks.add(product.id, by: user) }
            await expectError(.rateLimited) { try await shop.keycat.follows.unfollow(star.userID, by: user) }
            await #expect(try !shop.keycat.bookmarks.isBookmarked(product.id, by: user))
            await #expect(try shop.keycat.follows.isFollowing(star.userID, by: user))
            // Someone else is not affected; reads are never limited.
            try await shop.keycat.bookmarks.add(product.id, by: star)
            shop.clock.advance(by: 1)
            try await shop.keycat.bookmarks.add(product.id, by: user)
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == 2)
        }
    }

    @Test("two KeyCats on one Postgres database give a user one toggle budget, not one each",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func oneBudgetAcrossServers() async throws {
        try await SocialShop.with(.postgres, rateLimit: try RateLimit(perSecond: 1, burst: 3)) { shop throws in
            let second = try await KeyCat.open(shop.keycat.configuration)
            defer { second.close() }
            let product = try await shop.product()
            let user = try await shop.user()
            try await shop.keycat.bookmarks.add(product.id, by: user)
            try await second.bookmarks.remove(product.id, by: user)
            try await shop.keycat.bookmarks.add(product.id, by: user)
            await expectError(.rateLimited) { try await second.bookmarks.remove(product.id, by: user) }
            await expectError(.rateLimited) { try await shop.keycat.bookmarks.remove(product.id, by: user) }
            shop.clock.advance(by: 1)
            try await second.bookmarks.remove(product.id, by: user)
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == 0)
        }
    }

    @Test("opening KeyCat with an out-of-range limit is a validation error")
    func configuration() async throws {
        var limit = try RateLimit(perSecond: 1, burst: 1)
        limit.burst = 0
        let broken = limit
        await expectError(.validation, field: "burst") {
            try await TestShop.with(configure: { $0.toggleRateLimit = broken }) { _ in }
        }
    }
}
