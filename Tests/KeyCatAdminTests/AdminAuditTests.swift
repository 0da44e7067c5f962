import Foundation
import KeyCatTestSupport
import Testing

/// `audit list`: the operators' window on what was done, paged like every other list.
///
/// SQLite only for its fixture, the demo; the audit log's filters run on every store in
/// `StoredPortsTests` and `HostileInputTests`.
@Suite("keycat-admin audit list")
struct AdminAuditTests {
    @Test("walking the audit log page by page returns every entry once, newest first; filters narrow it")
    func walk() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            var ids: [Int] = []
            var cursor: String?
            repeat {
                let outcome = try AdminProcess.run(["audit", "list", "--db", path, "--limit", "2", "--json"]
                                                   + (cursor.map { ["--cursor", $0] } ?? []))
                #expect(outcome.status == 0, "\(outcome.standardError)")
                let page = try jsonObject(outcome.standardOutput)
                ids += try #require(page["items"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
                cursor = page["next_cursor"] as? String
            } while cursor != nil
            #expect(ids.count >= 6)
            #expect(ids == ids.sorted(by: >))
            #expect(Set(ids).count == ids.count)

            // The demo's refund is the seller's, of part of their parcel.
            let refunds = try jsonObject(try AdminProcess.run(["audit", "list", "--db", path, "--action", "shipment.refund", "--json"]).standardOutput)
            let items = try #require(refunds["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["target"] as? String == "order:1")

            let future = try jsonObject(try AdminProcess.run(["audit", "list", "--db", path, "--since", "2100-01-01", "--json"]).standardOutput)
            #expect((future["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("a cursor from another filter is refused, and a bad --since is a usage error")
    func refusals() throws {
        try withTemporaryDirectory { directory in
            let (path, _) = try runDemo(in: directory)
            let first = try jsonObject(try AdminProcess.run(["audit", "list", "--db", path, "--limit", "1", "--json"]).standardOutput)
            let cursor = try #require(first["next_cursor"] as? String)
            let other = try AdminProcess.run(["audit", "list", "--db", path, "--actor", "cli:tester", "--cursor", cursor])
            #expect(other.status == 1)
            #expect(other.standardError.contains("cursor"))
            let badDate = try AdminProcess.run(["audit", "list", "--db", path, "--since", "last week"])
            #expect(badDate.status == 2)
        }
    }
}
