import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// The product list queries on Postgres have the same partial indexes behind them as on SQLite:
/// with sequential scans and sorts priced out, the planner still finds a plan, and it is an index
/// walk in the page's order.
@Suite("Every product list query has an index behind it on Postgres",
       .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresProductQueryPlanTests {
    @Test("no sequential scan and no sort step, for every sort, filter and page")
    func plans() async throws {
        try await withPostgresTestDatabase { database in
            try await database.withConnection { connection in
                // Priced out, not forbidden: a plan that cannot do without one still shows it.
                try connection.execute("SET enable_seqscan = off; SET enable_sort = off; SET enable_bitmapscan = off")
                for sort in ProductSort.browsing {
                    for filter in ProductQueryPlanTests.filters {
                        for position in [nil, CursorPosition(sortKey: 50_000, id: 10)] {
                            let query = ProductListQuery(filter: filter, sort: sort, after: position, limit: 21)
                            for part in query.parts {
                                let plan = try connection.query("EXPLAIN " + part.sql, part.arguments) { $0.string(0) }
                                let text = plan.joined(separator: " | ")
                                #expect(!text.contains("Seq Scan"), "full scan: \(text) — \(filter) \(sort)")
                                #expect(!plan.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Sort") },
                                        "sorts: \(text) — \(filter) \(sort)")
                                #expect(text.contains("Index Scan") || text.contains("Index Only Scan"),
                                        "no index: \(text) — \(filter) \(sort)")
                            }
                        }
                    }
                }
            }
        }
    }
}
