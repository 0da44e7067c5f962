import Foundation
import KeyCatTestSupport
import Testing

/// `orders export`: a period's money for the accountant, as CSV or JSON.
///
/// SQLite only for its fixture, the demo; the export itself runs on both stores in
/// `OrdersExportTests`.
@Suite("keycat-admin orders export")
struct AdminExportTests {
    /// A month before now: the demo's records fall after it, and a period is at most 366 days.
    static let monthAgo = Date().addingTimeInterval(-30 * 86_400).formatted(.iso8601)

    @Test("the demo's order, payment and refund come out as CSV rows and as JSON lists that agree")
    func exportBothFormats() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            let csv = try AdminProcess.run(["orders", "export", "--db", path, "--since", Self.monthAgo, "--format", "csv"])
            #expect(csv.status == 0, "\(csv.standardError)")
            let rows = csv.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.first?.hasPrefix("record,id,order_id,merchant_uid") == true)
            #expect(rows.dropFirst().map { $0.split(separator: ",").first.map(String.init) } == ["order", "payment", "refund"])

            let json = try jsonObject(try AdminProcess.run(
                ["orders", "export", "--db", path, "--since", Self.monthAgo, "--format", "json"]).standardOutput)
            let orders = try #require(json["orders"] as? [[String: Any]])
            let payments = try #require(json["payments"] as? [[String: Any]])
            let refunds = try #require(json["refunds"] as? [[String: Any]])
            #expect(orders.count == 1 && payments.count == 1 && refunds.count == 1)
            #expect(payments.first?["amount"] as? Int == orders.first?["amount"] as? Int)
            #expect(refunds.first?["amount"] as? Int == orders.first?["refunded_amount"] as? Int)
            #expect((orders.first?["lines"] as? [Any])?.isEmpty == false)

            let empty = try AdminProcess.run(["orders", "export", "--db", path, "--since", "2000-01-01", "--until", "2000-01-02", "--format", "csv"])
            #expect(empty.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 1)
        }
    }

    @Test("--output writes a new owner-only file and never replaces one; a backwards period is refused")
    func outputFile() throws {
        try withTemporaryDirectory { directory in
            let (path, _) = try runDemo(in: directory)
            let target = directory.appendingPathComponent("november.csv").path
            let first = try AdminProcess.run(["orders", "export", "--db", path, "--since", Self.monthAgo, "--format", "csv", "--output", target])
            #expect(first.status == 0, "\(first.standardError)")
            let attributes = try FileManager.default.attributesOfItem(atPath: target)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let again = try AdminProcess.run(["orders", "export", "--db", path, "--since", Self.monthAgo, "--format", "csv", "--output", target])
            #expect(again.status == 3)
            let backwards = try AdminProcess.run(["orders", "export", "--db", path, "--since", "2026-02-01", "--until", "2026-01-01", "--format", "json"])
            #expect(backwards.status == 1)
            #expect(backwards.standardError.contains("until"))
        }
    }
}
