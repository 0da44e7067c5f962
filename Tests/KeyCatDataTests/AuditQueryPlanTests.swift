import Foundation
import Testing
import KeyCatDomain
import KeyCatInfrastructure
@testable import KeyCatData

/// Each audit filter walks an index newest first: no sort, no scan of the whole log.
///
/// SQLite only: SQLite's `EXPLAIN QUERY PLAN`; Postgres plans depend on its statistics.
@Suite("Audit log query plans")
struct AuditQueryPlanTests {
    @Test("each filter uses its index and never sorts", arguments: [
        (AuditFilter(actor: "cli:root"), "audit_log_by_actor"),
        (AuditFilter(action: "order.refund"), "audit_log_by_action"),
        (AuditFilter(target: "order:1"), "audit_log_by_target"),
        (AuditFilter(), "audit_log_by_time"),
    ])
    func plans(filter: AuditFilter, index: String) async throws {
        try await withTestDatabase { database in
            let log = SQLAuditLog<SQLiteDatabase>(database: database)
            for number in 0..<30 {
                try await log.record(AuditEntry(actor: "cli:\(number % 3)", action: "order.\(number % 5)", target: "order:\(number)",
                                                at: Date(timeIntervalSince1970: 1_767_225_600 + Double(number))))
            }
            var captured: [String] = []
            let entries = try await log.entries(matching: filter, after: CursorPosition(sortKey: Int64.max, id: Int64.max), limit: 5)
            #expect(entries.count <= 5)
            try await database.read { connection in
                var sql = "EXPLAIN QUERY PLAN SELECT id FROM audit_log WHERE "
                if let actor = filter.actor { sql += "actor = '\(actor)' AND " }
                if let action = filter.action { sql += "action = '\(action)' AND " }
                if let target = filter.target { sql += "target = '\(target)' AND " }
                sql += "(created_at, id) < (9e18, 9e18) ORDER BY created_at DESC, id DESC LIMIT 5"
                captured = try connection.query(sql) { $0.string(3) }
            }
            #expect(captured.joined().contains(index), "\(captured)")
            #expect(!captured.joined().contains("TEMP B-TREE"), "\(captured)")
        }
    }
}
