import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// SQLite only: SQLite's `EXPLAIN QUERY PLAN`.
@Suite("Every social list query has an index behind it")
struct SocialQueryPlanTests {
    /// Each list's SQL and the index that must serve it, at the top and after a cursor.
    static func lists(after position: CursorPosition?) -> [(name: String, sql: String, arguments: [SQLValue], index: String)] {
        var lists: [(String, String, [SQLValue], String)] = []
        for column in SQLReviewRepository<SQLiteDatabase>.ListColumn.allCases {
            let (sql, keyset) = SQLReviewRepository<SQLiteDatabase>.listSQL(where: column, after: position)
            lists.append(("reviews by \(column)", sql, keyset, column == .product ? "reviews_by_product" : "reviews_by_author"))
        }
        let (bookmarks, keyset) = SQLBookmarkRepository<SQLiteDatabase>.listSQL(after: position)
        lists.append(("bookmarks", bookmarks, keyset, "bookmarks_by_user"))
        for direction in FollowDirection.allCases {
            let (sql, keyset) = SQLFollowRepository<SQLiteDatabase>.listSQL(direction, after: position)
            lists.append(("\(direction)", sql, keyset, direction == .followers ? "follows_by_followee" : "follows_by_follower"))
        }
        return lists
    }

    @Test("each list reads its own index newest first, without sorting in memory",
          arguments: [nil, CursorPosition(sortKey: 1_767_225_600_000, id: 10)])
    func plans(position: CursorPosition?) throws {
        try withTemporaryDirectory { directory throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("plan.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            for list in Self.lists(after: position) {
                let plan = try database.blockingRead { connection in
                    try connection.query("EXPLAIN QUERY PLAN " + list.sql, [.integer(3)] + list.arguments + [.int(21)]) {
                        $0.string(3)
                    }
                }
                let text = plan.joined(separator: " | ")
                #expect(text.contains(list.index), "\(list.name) does not use \(list.index): \(text)")
                #expect(!text.contains("TEMP B-TREE"), "\(list.name) sorts in memory: \(text)")
                #expect(!list.sql.uppercased().contains("COUNT("))
            }
        }
    }
}
