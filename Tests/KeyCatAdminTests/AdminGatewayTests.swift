import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

@Suite("keycat-admin: refunds that retry safely, and the PG's side of reconciliation")
struct AdminGatewayTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Opens the database (and the simulator beside it) without creating anything.
    static func open(_ path: String) async throws -> KeyCat {
        try await open(KeyCat.Configuration(databasePath: path))
    }

    /// Opens the database `store` names (and the simulator beside it) without creating anything.
    static func open(_ store: KeyCat.Configuration) async throws -> KeyCat {
        var configuration = store
        configuration.createIfMissing = false
        configuration.gatewayLog = DiscardingLogSink()
        return try await KeyCat.open(configuration)
    }

    /// Every order with `status`, walking the pages.
    static func orders(_ keycat: KeyCat, _ status: OrderStatus) async throws -> [Order] {
        var all: [Order] = []
        var cursor: String?
        repeat {
            let page = try await keycat.orders.list(OrderFilter(status: status), limit: try PageLimit(100), cursor: cursor,
                                                    by: Principal.operatorConsole("tester"))
            all += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }

    @Test("running the same orders refund twice refunds once; another --idempotency-key refunds again",
          arguments: TestStore.allCases)
    func refundTwice(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let path = database.argument
            #expect(try database.run(["payments", "simulate", "--db", path, "--orders", "5", "--decline-rate", "0"]).status == 0)
            let reader = try await Self.open(database.configuration)
            let paid = try await reader.orders.list(OrderFilter(status: .paid), by: .operatorConsole("t")).items.first
            reader.close()
            let order = try #require(paid)
            let refund = ["orders", "refund", String(order.id.rawValue), "--db", path, "--amount", "1000", "--reason", "dent"]
            let first = try database.run(refund)
            #expect(first.status == 0, "\(first.standardError)")
            let second = try database.run(refund)
            #expect(second.status == 0 && second.standardOutput.contains("nothing was refunded again"), "\(second.standardOutput)")
            let third = try database.run(refund + ["--idempotency-key", "second-dent", "--json"])
            #expect(third.status == 0)
            #expect(try json(third.standardOutput)["refunded_amount"] as? Int == 2_000)
            let keycat = try await Self.open(database.configuration)
            defer { keycat.close() }
            #expect(keycat.paymentSimulator!.cancellations(impUID: order.impUID!).map(\.amount) == [1_000, 1_000])
        }
    }

    /// SQLite only: the drill restores a SQLite backup of the file.
    @Test("the restore drill from the command line: db check --gateway reports the orphans until reconcile voids them")
    func restoreDrill() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("shop.db").path
            let backup = directory.appendingPathComponent("backup.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            // No line refunds: each lost payment is then whole at the PG, and its amount is the order's.
            let simulate = ["payments", "simulate", "--db", path, "--orders", "8", "--decline-rate", "0", "--line-refund-rate", "0"]
            #expect(try AdminProcess.run(simulate + ["--seed", "1"]).status == 0)
            // The database alone: the PG (the simulator's file) keeps every later payment.
            #expect(try AdminProcess.run(["db", "backup", backup, "--database-only", "--db", path]).status == 0)
            #expect(try AdminProcess.run(simulate + ["--seed", "2"]).status == 0)
            let newer = try await Self.open(path)
            let older = try await Self.open(backup)
            // Paid, and perhaps on its way since: the sellers ship some of what the buyers pay for.
            let held: [OrderStatus] = [.paid, .shipped, .delivered]
            var kept: Set<String> = []
            var lost: [Order] = []
            for status in held { kept.formUnion(try await Self.orders(older, status).map(\.merchantUID)) }
            for status in held { lost += try await Self.orders(newer, status).filter { !kept.contains($0.merchantUID) } }
            newer.close()
            older.close()
            #expect(!lost.isEmpty)
            let lostAmount = lost.reduce(Int64(0)) { $0 + $1.amount.won }

            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            #expect(try AdminProcess.run(["db", "check", "--db", path]).status == 0)
            let check = try AdminProcess.run(["db", "check", "--gateway", "--db", path, "--json"])
            #expect(check.status == 1)
            let gateway = try #require(try json(check.standardOutput)["gateway"] as? [String: Any])
            #expect((gateway["orphans"] as? [[String: Any]])?.count == lost.count)
            #expect(gateway["orphan_amount"] as? Int == Int(lostAmount))
            let human = try AdminProcess.run(["db", "check", "--gateway", "--db", path])
            #expect(human.status == 1 && human.standardOutput.contains("gateway: \(lost.count) problem(s)"), "\(human.standardOutput)")

            let report = try json(try AdminProcess.run(["payments", "reconcile", "--db", path, "--json"]).standardOutput)
            #expect(report["orphans"] as? Int == lost.count && report["orphans_voided"] as? Int == 0)
            #expect(try AdminProcess.run(["db", "check", "--gateway", "--db", path]).status == 1)
            let voided = try AdminProcess.run(["payments", "reconcile", "--void-orphans", "--db", path, "--json"])
            #expect(try json(voided.standardOutput)["orphans_voided"] as? Int == lost.count)
            let clean = try AdminProcess.run(["db", "check", "--gateway", "--db", path])
            #expect(clean.status == 0 && clean.standardOutput.contains("gateway: ok"), "\(clean.standardOutput)")
        }
    }
}
