import Foundation
import KeyCatTestSupport
import Testing

/// SQLite only: the demo fixture and the file backup (`stats` on Postgres is `AdminPostgresTests`').
@Suite("keycat-admin stats and db backup as processes")
struct AdminStatsAndBackupTests {
    @Test("stats after the demo: the day's sale and refund, statuses and top products, as tables or JSON")
    func stats() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0)
            let outcome = try AdminProcess.run(["stats", "--days", "7", "--db", path, "--json"])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let report = try jsonObject(outcome.standardOutput)
            #expect(report["time_zone"] as? String == "Asia/Seoul")
            #expect((report["days"] as? [Any])?.count == 7)
            #expect(report["total_sales"] as? Int == 84_800)
            #expect(report["total_refunds"] as? Int == 5_000)
            let revenue = try #require(report["top_by_revenue"] as? [[String: Any]])
            #expect(revenue.first?["units_sold"] as? Int == 2)
            let statuses = try #require(report["orders_by_status"] as? [[String: Any]])
            #expect(statuses.contains { $0["status"] as? String == "partially_refunded" && $0["count"] as? Int == 1 })
            let human = try AdminProcess.run(["stats", "--db", path])
            #expect(human.status == 0)
            #expect(human.standardOutput.contains("█"))
            #expect(human.standardOutput.contains("₩84,800"))
        }
    }

    static let badStats: [(arguments: [String], status: Int32)] = [
        (["stats", "--days", "0"], 2), (["stats", "--days", "366"], 2), (["stats", "--days", "week"], 2),
        (["stats", "--top", "0"], 2), (["stats", "extra"], 2), (["stats"], 3),
    ]

    @Test("stats refuses bad input: usage errors exit 2, a missing database 3", arguments: badStats)
    func statsBadInput(arguments: [String], status: Int32) throws {
        try withTemporaryDirectory { directory in
            let outcome = try AdminProcess.run(arguments + ["--db", directory.appendingPathComponent("none.db").path])
            #expect(outcome.status == status, "\(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty)
        }
    }

    @Test("db backup --database-only writes a file that passes db check and refuses to overwrite it")
    func backup() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0)
            let copy = directory.appendingPathComponent("copy.db").path
            let outcome = try AdminProcess.run(["db", "backup", copy, "--database-only", "--db", path, "--json"])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let summary = try jsonObject(outcome.standardOutput)
            #expect(summary["path"] as? String == copy)
            #expect((summary["pages"] as? Int ?? 0) > 0)
            // No progress in --json or off a terminal.
            #expect(outcome.standardError.isEmpty)
            #expect(try AdminProcess.run(["db", "check", "--db", copy]).status == 0)
            let orders = try jsonObject(try AdminProcess.run(["orders", "list", "--db", copy, "--json"]).standardOutput)
            #expect((orders["items"] as? [[String: Any]])?.first?["status"] as? String == "partially_refunded")
            let again = try AdminProcess.run(["db", "backup", copy, "--database-only", "--db", path, "--json"])
            #expect(again.status == 3)
            let error = try jsonObject(again.standardError)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "storage")
            #expect((error?["message"] as? String)?.contains("already exists") == true)
        }
    }

    static let badBackups: [(arguments: [String], status: Int32)] = [
        (["db", "backup"], 2), (["db", "backup", "a.db", "b.db"], 2), (["db", "backup", "missing/dir/copy.db"], 3),
        (["db", "backup", "missing/dir/copy.db", "--database-only"], 3), (["db", "restore"], 2), (["db", "restore", "a", "b"], 2),
        (["db", "restore", "no-such-backup"], 3),
    ]

    @Test("db backup refuses bad input: usage errors exit 2, I/O problems 3", arguments: badBackups)
    func backupBadInput(arguments: [String], status: Int32) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let outcome = try AdminProcess.run(arguments + ["--db", path], currentDirectory: directory)
            #expect(outcome.status == status, "\(outcome.standardError)")
        }
    }

    @Test("db backup of a database that does not exist exits 3 and creates nothing")
    func backupMissingSource() throws {
        try withTemporaryDirectory { directory in
            let copy = directory.appendingPathComponent("copy.db").path
            let outcome = try AdminProcess.run(["db", "backup", copy, "--db", directory.appendingPathComponent("none.db").path])
            #expect(outcome.status == 3)
            #expect(!FileManager.default.fileExists(atPath: copy))
        }
    }
}
