import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// With the buckets in the database, servers share one toggle budget per user.
@Suite("Toggle budgets shared through the database")
struct SharedToggleBudgetTests {
    static let limit = try! RateLimit(perSecond: 1, burst: 4)

    /// Two servers' limiters over one database: the second has no budget of its own.
    static func twoServers(_ store: any TokenBucketStore, clock: TestClock) async throws -> [KeyCatError.Code?] {
        let servers = [PerUserRateLimiter(limit: limit, clock: clock, shared: store),
                       PerUserRateLimiter(limit: limit, clock: clock, shared: store)]
        var outcomes: [KeyCatError.Code?] = []
        for index in 0..<6 {
            outcomes.append(await keycatError { try await servers[index % 2].take(for: UserID(2)) }?.code)
        }
        clock.advance(by: 1)
        outcomes.append(await keycatError { try await servers[1].take(for: UserID(2)) }?.code)
        outcomes.append(await keycatError { try await servers[0].take(for: UserID(3)) }?.code)
        return outcomes
    }

    @Test("two servers give a user one burst, refilled at one rate; other users keep theirs; each budget is its own",
          arguments: Backend.stored, TokenBucketBudget.allCases)
    func oneBudget(_ backend: Backend, _ budget: TokenBucketBudget) async throws {
        let clock = TestClock()
        func run(_ database: some SQLDatabase) async throws -> [KeyCatError.Code?] {
            try await database.write { connection in
                for email in ["a@example.com", "b@example.com", "c@example.com"] {
                    try connection.run("""
                        INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                        VALUES (?, 'nick', '!', 'buyer', 0, 0)
                        """, [.text(email)])
                }
            }
            let other: TokenBucketBudget = budget == .toggles ? .imageUploads : .toggles
            let outcomes = try await Self.twoServers(SQLTokenBucketStore(database: database, budget: budget), clock: clock)
            // The user who spent this budget still has all of the other.
            let untouched = PerUserRateLimiter(limit: Self.limit, clock: clock,
                                               shared: SQLTokenBucketStore(database: database, budget: other))
            for _ in 0..<4 { #expect(await keycatError { try await untouched.take(for: UserID(2)) } == nil) }
            return outcomes
        }
        let outcomes = backend == .sqlite
            ? try await withTestDatabase { try await run($0) } : try await withPostgresTestDatabase { try await run($0) }
        #expect(outcomes == [nil, nil, nil, nil, .rateLimited, .rateLimited, nil, nil])
    }

    @Test("in-process limiters each give the full burst: what the shared store is for")
    func perProcess() async {
        let clock = TestClock()
        let servers = [PerUserRateLimiter(limit: Self.limit, clock: clock), PerUserRateLimiter(limit: Self.limit, clock: clock)]
        var refused: [Int] = []
        for index in 0..<8 where await keycatError({ try await servers[index % 2].take(for: UserID(2)) }) != nil {
            refused.append(index)
        }
        #expect(refused.isEmpty)
    }

    @Test("a burst of concurrent toggles from two Postgres servers takes exactly the budget",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func concurrentServers() async throws {
        try await withTwoPostgresServers { first, second in
            try await first.write { connection in
                try connection.run("""
                    INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                    VALUES ('a@example.com', 'nick', '!', 'buyer', 0, 0)
                    """, [])
            }
            let clock = TestClock()
            let servers = [first, second].map {
                PerUserRateLimiter(limit: Self.limit, clock: clock, shared: SQLTokenBucketStore(database: $0, budget: .toggles))
            }
            let taken = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<12 {
                    group.addTask { (try? await servers[index % 2].take(for: UserID(1))) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == Self.limit.burst)
        }
    }
}
