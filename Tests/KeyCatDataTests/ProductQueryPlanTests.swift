import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's `EXPLAIN QUERY PLAN` (Postgres's are `PostgresProductQueryPlanTests`).
@Suite("Every product list query has an index behind it")
struct ProductQueryPlanTests {
    static let filters: [ProductFilter] = [
        ProductFilter(),
        ProductFilter(category: .keyboard),
        ProductFilter(sellerID: UserID(3)),
        ProductFilter(category: .switch, sellerID: UserID(3)),
        ProductFilter(kind: .groupBuy),
        ProductFilter(minimumPrice: Money(won: 10_000), maximumPrice: Money(won: 90_000)),
        ProductFilter(category: .keycap, minimumPrice: Money(won: 1)),
        ProductFilter(switchType: .tactile, layout: .tenkeyless, connection: .wired, hotSwap: true),
    ]

    @Test("no full table scan and no temporary B-tree, for every sort, filter and page",
          arguments: ProductSort.browsing)
    func plans(sort: ProductSort) throws {
        try withTemporaryDirectory { directory throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("plan.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            for filter in Self.filters {
                for position in [nil, CursorPosition(sortKey: 50_000, id: 10)] {
                    let query = ProductListQuery(filter: filter, sort: sort, after: position, limit: 21)
                    #expect(query.parts.count == (position == nil ? 1 : 2))
                    for part in query.parts {
                        let plan = try database.blockingRead { connection in
                            try connection.query("EXPLAIN QUERY PLAN " + part.sql, part.arguments) { $0.string(3) }
                        }
                        let text = plan.joined(separator: " | ")
                        #expect(!text.contains("TEMP B-TREE"), "sorts in memory: \(text) — \(filter) \(sort)")
                        #expect(text.contains("USING INDEX") || text.contains("USING COVERING INDEX"),
                                "no index: \(text) — \(filter) \(sort)")
                        #expect(!plan.contains { $0.hasPrefix("SCAN products") && !$0.contains("INDEX") },
                                "full scan: \(text)")
                    }
                }
            }
        }
    }

    @Test("after a cursor, rows sharing its sort key are found by a seek on key and id, not a walk")
    func tiesSeekOnBothColumns() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("ties.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            let query = ProductListQuery(filter: ProductFilter(), sort: .rating, after: CursorPosition(sortKey: 0, id: 500), limit: 21)
            let ties = try #require(query.ties)
            let plan = try await database.read { try $0.query("EXPLAIN QUERY PLAN " + ties.sql, ties.arguments) { $0.string(3) } }
            #expect(plan.joined().contains("(rating_score=? AND id<?)"), "\(plan)")
        }
    }

    @Test("lists never count rows")
    func noCount() {
        for sort in ProductSort.browsing {
            let query = ProductListQuery(filter: ProductFilter(category: .keyboard), sort: sort, after: nil, limit: 20)
            #expect(query.parts.allSatisfy { !$0.sql.uppercased().contains("COUNT(") })
        }
    }
}
