import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// The order commands run on both stores; `payments simulate` racing and killed on a file is
/// SQLite's here (on Postgres: `AdminPostgresTests`), and a broken foreign key needs SQLite's
/// `PRAGMA foreign_keys`.
@Suite("keycat-admin orders and payments as processes")
struct AdminPaymentsTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("payments simulate run by two OS processes at once on one file, racing for the same units: every invariant holds")
    func twoProcesses() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shared.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let arguments = ["payments", "simulate", "--db", path, "--orders", "150", "--buyers", "12", "--products", "3",
                             "--stock", "40", "--catalog", "shared",
                             "--fault-rate", "0.05", "--timeout-rate", "0.1", "--webhook-duplicate-rate", "0.3", "--json"]
            async let first = Task.detached { try AdminProcess.run(arguments + ["--seed", "1"]) }.value
            async let second = Task.detached { try AdminProcess.run(arguments + ["--seed", "2"]) }.value
            for outcome in try await [first, second] {
                #expect(outcome.status == 0, "\(outcome.standardOutput) \(outcome.standardError)")
                let report = try json(outcome.standardOutput)
                #expect(report["holds"] as? Bool == true)
                let invariants = try #require(report["invariants"] as? [String: Int])
                #expect(invariants.values.allSatisfy { $0 == 0 }, "\(invariants)")
                let activity = try #require(report["activity"] as? [String: Int])
                #expect(activity["out_of_stock", default: 0] > 0, "the last units should have been raced for: \(activity)")
            }
            let check = try AdminProcess.run(["db", "check", "--db", path])
            #expect(check.status == 0, "\(check.standardOutput)")
        }
    }

    @Test("a simulate process killed mid-run leaves a database that reconciles and passes db check")
    func killedMidRun() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("killed.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let child = try ChildProcess(
                AdminProcess.binary.path, ["payments", "simulate", "--db", path, "--orders", "100000", "--timeout-rate", "0.1"],
                environment: ["PATH": "/usr/bin:/bin", "USER": "tester"])
            // Wait (a few milliseconds at a time) until orders are being written, then kill -9.
            var configuration = KeyCat.Configuration(databasePath: path)
            configuration.createIfMissing = false
            configuration.migrates = false
            let observer = try await KeyCat.open(configuration)
            var seen = 0
            for _ in 0..<4_000 where seen < 20 {
                seen = (try? await observer.orders.list(limit: try PageLimit(20), by: Principal.operatorConsole("tester")).items.count) ?? 0
                try await Task.sleep(for: .milliseconds(5))
            }
            observer.close()
            child.signal(SIGKILL)
            child.wait()
            #expect(seen >= 20, "the child never got going")
            let reconcile = try AdminProcess.run(["payments", "reconcile", "--db", path])
            #expect(reconcile.status == 0, "\(reconcile.standardError)")
            let check = try AdminProcess.run(["db", "check", "--db", path])
            #expect(check.status == 0, "\(check.standardOutput)")
        }
    }

    @Test("orders list, show, ship, deliver, refund and cancel from the command line, audited as cli:<user>",
          arguments: TestStore.allCases)
    func orderCommands(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let path = database.argument
            #expect(try database.run(["payments", "simulate", "--db", path, "--orders", "30", "--decline-rate", "0"]).status == 0)
            let list = try database.run(["orders", "list", "--db", path, "--status", "paid", "--limit", "3", "--json"])
            #expect(list.status == 0)
            let page = try json(list.standardOutput)
            let items = try #require(page["items"] as? [[String: Any]])
            #expect(items.count == 3 && page["next_cursor"] is String)
            // Paid orders none of whose parcels left yet: the simulated sellers ship some.
            let all = try json(try database.run(["orders", "list", "--db", path, "--status", "paid", "--limit", "100", "--json"]).standardOutput)
            let untouched = try #require(all["items"] as? [[String: Any]]).filter { $0["fulfilment"] as? String == "unfulfilled" }
            try #require(untouched.count >= 3, "\(untouched.count) paid orders with nothing shipped")
            let ids = untouched.prefix(3).compactMap { $0["id"] as? Int }.map(String.init)
            let (a, b, c) = (ids[0], ids[1], ids[2])
            #expect(try database.run(["orders", "ship", a, "--db", path, "--carrier", "CJ", "--tracking", "123456789012"]).status == 0)
            #expect(try database.run(["orders", "deliver", a, "--db", path]).status == 0)
            let refund = try database.run(["orders", "refund", b, "--db", path, "--amount", "1000", "--reason", "scratch", "--json"])
            #expect(refund.status == 0)
            #expect(try json(refund.standardOutput)["status"] as? String == "partially_refunded")
            let tooMuch = try database.run(["orders", "refund", b, "--db", path, "--amount", "999999", "--reason", "x", "--json"])
            #expect(tooMuch.status == 1 && tooMuch.standardError.contains("cancel_amount_exceeds_cancellable"))
            #expect(try database.run(["orders", "cancel", c, "--db", path, "--reason", "asked"]).status == 0)
            let shown = try database.run(["orders", "show", c, "--db", path, "--json"])
            #expect(try json(shown.standardOutput)["status"] as? String == "cancelled")
            let illegal = try database.run(["orders", "deliver", c, "--db", path])
            #expect(illegal.status == 1 && illegal.standardError.contains("cannot become delivered"))
            #expect(try database.run(["orders", "refund", c, "--db", path]).status == 2)  // --reason is required
            #expect(try database.run(["db", "check", "--db", path]).status == 0)

            let keycat = try await KeyCat.open(database.configuration)
            defer { keycat.close() }
            let actions = try await keycat.auditLog.recent(limit: 10).filter { $0.action.hasPrefix("order.") }
            #expect(Set(actions.map(\.action)) == ["order.ship", "order.deliver", "order.refund", "order.cancel"])
            #expect(actions.allSatisfy { $0.actor == "cli:tester" }, "\(actions.map(\.actor))")
        }
    }
}

/// SQLite only: the broken foreign key needs SQLite's `PRAGMA foreign_keys = OFF`.
@Suite("keycat-admin payments simulate judges the whole database")
struct AdminSimulateHealthTests {
    @Test("simulate on a database with a broken foreign key says so, lists it and exits 1; --durability takes full or normal")
    func brokenForeignKey() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("broken.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let database = try SQLiteDatabase(path: path)
            try database.withWriter {
                try $0.execute("PRAGMA foreign_keys = OFF; INSERT INTO refresh_token_families (user_id, created_at) VALUES (4242, 0)")
            }
            database.close()
            let human = try AdminProcess.run(["payments", "simulate", "--db", path, "--orders", "10", "--buyers", "2"])
            #expect(human.status == 1, "\(human.standardOutput)")
            #expect(!human.standardOutput.contains("Every invariant holds"), "\(human.standardOutput)")
            #expect(human.standardOutput.contains("foreign_keys: refresh_token_families row"), "\(human.standardOutput)")
            #expect(human.standardOutput.contains("synchronous=FULL"))
            let json = try AdminProcess.run(["payments", "simulate", "--db", path, "--orders", "10", "--buyers", "2",
                                             "--durability", "normal", "--json"])
            #expect(json.status == 1)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(report["holds"] as? Bool == false && report["durability"] as? String == "normal")
            #expect((report["db_check"] as? [String])?.isEmpty == false)
            #expect(try AdminProcess.run(["payments", "simulate", "--db", path, "--durability", "fast"]).status == 2)
        }
    }
}
