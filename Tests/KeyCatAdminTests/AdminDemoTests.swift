import Foundation
import KeyCatTestSupport
import Testing

/// The package folder, where `seed/catalog.json` is (the demo reads it from the current
/// directory).
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs `keycat-admin demo` on a fresh database in `directory`; returns its path and outcome.
func runDemo(in directory: URL, _ extra: [String] = []) throws -> (path: String, outcome: AdminProcess.Outcome) {
    let path = directory.appendingPathComponent("demo.db").path
    let outcome = try AdminProcess.run(["demo", "--db", path] + extra, currentDirectory: packageDirectory)
    return (path, outcome)
}

func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
}

/// SQLite only: the demo builds a SQLite file (on Postgres it is refused as a validation error).
@Suite("keycat-admin demo")
struct AdminDemoTests {
    @Test("the demo tells every step, ends healthy, and leaves a database the other commands explore")
    func story() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            let text = demo.standardOutput
            for step in ["demo catalog", "applies to sell", "operator approves", "buyer signs up", "two pages of five",
                         "tactile switches", "searches the catalog", "«기계식키보드»", "«hanu»", "«ㅈㅅㅇ»",
                         "teaches search a synonym", "search index against the catalog: ok", "bookmarks it and follows", "saves her delivery address", "two parcels",
                         "checks out", "first card is declined", "second card pays", "a duplicate: ignored", "order desk",
                         "Ship to: 김민지", "partly shipped", "both parcels arrive", "one on its carrier's word",
                         "한진택배 has no parcel 4123456789", "reviews the switches",
                         "refunds part of their parcel", "What the shop owes each seller", "(payment 1)", "(refund 1)",
                         "statistics", "db check: the database is healthy", "keycat-admin orders show", "keycat-admin search explain"] {
                #expect(text.contains(step), "the story does not mention «\(step)»")
            }
            #expect(text.contains("20. "), "twenty numbered steps")
            #expect(!text.contains("(nothing)"), "every search the demo shows finds something")
            let check = try AdminProcess.run(["db", "check", "--db", path])
            #expect(check.status == 0, "\(check.standardOutput)")
            let orders = try jsonObject(try AdminProcess.run(["orders", "list", "--db", path, "--json"]).standardOutput)
            let items = try #require(orders["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["status"] as? String == "partially_refunded")
            #expect(items.first?["refunded_amount"] as? Int == 5_000)
            // Another process refunds more of the same payment: the PG file beside the database is shared.
            let refund = try AdminProcess.run(["orders", "refund", "1", "--amount", "1000", "--reason", "goodwill", "--db", path])
            #expect(refund.status == 0, "\(refund.standardError)")
        }
    }

    @Test("a second run starts fresh and says what it removed; --json prints the steps instead")
    func rerunAsJSON() throws {
        try withTemporaryDirectory { directory in
            #expect(try runDemo(in: directory).outcome.status == 0)
            let (path, again) = try runDemo(in: directory, ["--json"])
            #expect(again.status == 0, "\(again.standardError)")
            let summary = try jsonObject(again.standardOutput)
            #expect((summary["removed"] as? [String])?.contains(path) == true)
            #expect(summary["order_status"] as? String == "partially_refunded")
            #expect(summary["healthy"] as? Bool == true)
            #expect((summary["steps"] as? [[String: Any]])?.count == 23)
            // Still exactly one order: nothing of the first run survived.
            let orders = try jsonObject(try AdminProcess.run(["orders", "list", "--db", path, "--json"]).standardOutput)
            #expect((orders["items"] as? [Any])?.count == 1)
        }
    }

    @Test("the demo runs without seed/catalog.json in the current directory: the catalog is built in")
    func builtInCatalog() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("demo.db").path
            let outcome = try AdminProcess.run(["demo", "--db", path, "--json"], currentDirectory: directory)
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
    }

    @Test("the demo refuses a file it did not create, and leaves it byte for byte, unless --force", arguments: [
        "a shop's database", "another program's file", "a Postgres shop's files beside",
    ])
    func refusesOtherFiles(kind: String) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            if kind == "a shop's database" {
                #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
                let seeded = try AdminProcess.run(["seed", "--db", path])
                #expect(seeded.status == 0, "\(seeded.standardError)")
            } else if kind == "a Postgres shop's files beside" {
                // No database file: a Postgres shop keeps its PG simulator file where one would be.
                let simulator = directory.appendingPathComponent("shop.pg.db").path
                try Data("a Postgres shop's payments".utf8).write(to: URL(fileURLWithPath: simulator))
                let refused = try AdminProcess.run(["demo", "--db", path])
                #expect(refused.status == 3 && refused.standardError.contains("--force"), "\(refused.standardError)")
                #expect(FileManager.default.contents(atPath: simulator) == Data("a Postgres shop's payments".utf8))
                return
            } else {
                try Data("keep this file".utf8).write(to: URL(fileURLWithPath: path))
            }
            let before = try #require(FileManager.default.contents(atPath: path))
            let refused = try AdminProcess.run(["demo", "--db", path])
            #expect(refused.status == 3)
            #expect(refused.standardError.contains(path))
            #expect(refused.standardError.contains("--force"))
            #expect(FileManager.default.contents(atPath: path) == before)

            let forced = try AdminProcess.run(["demo", "--db", path, "--force", "--json"])
            #expect(forced.status == 0, "\(forced.standardError)")
            #expect(FileManager.default.contents(atPath: path) != before)
        }
    }
}
