import Foundation
import KeyCatInfrastructure
import Synchronization
import Testing
@testable import KeyCatPGSimulator

@Suite("PG simulator: payments listed by status and time")
struct PGPaymentListingTests {
    /// A simulator on a clock the test moves, with `count` payments paid a minute apart.
    static func simulator(paying count: Int) throws -> (PGSimulator, TestClockBox) {
        let clock = TestClockBox()
        let simulator = try PGSimulator(now: { clock.now() })
        for index in 0..<count {
            clock.advance(60)
            try simulator.pay(merchantUID: "order-\(index)", cardNumber: PGTestCard.success.number, amount: 1_000 + Int64(index))
        }
        return (simulator, clock)
    }

    @Test("pages of the paid payments in a window, newest first, with total, previous and next")
    func pages() async throws {
        let (simulator, clock) = try Self.simulator(paying: 5)
        try simulator.pay(merchantUID: "declined", cardNumber: PGTestCard.declined.number, amount: 500)
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let to = Int64(clock.now().timeIntervalSince1970)
        let first = try await client.send(.get, "/payments/status/paid?from=0&to=\(to)&page=1&limit=2")
        #expect(first.status == 200)
        let response = try #require(first.json["response"] as? [String: Any])
        #expect(response["total"] as? Int == 5 && response["previous"] as? Int == 0 && response["next"] as? Int == 2)
        let list = try #require(response["list"] as? [[String: Any]])
        #expect(list.map { $0["merchant_uid"] as? String } == ["order-4", "order-3"])
        let last = try await client.send(.get, "/payments/status/paid?from=0&to=\(to)&page=3&limit=2")
        let lastPage = try #require(last.json["response"] as? [String: Any])
        #expect(lastPage["previous"] as? Int == 2 && lastPage["next"] as? Int == 0)
        #expect((lastPage["list"] as? [[String: Any]])?.map { $0["merchant_uid"] as? String } == ["order-0"])

        // The window is on the attempt's start time, both ends included.
        let window = try await client.send(.get, "/payments/status/all?from=\(to - 120)&to=\(to - 60)")
        let windowed = try #require(window.json["response"] as? [String: Any])
        #expect((windowed["list"] as? [[String: Any]])?.map { $0["merchant_uid"] as? String } == ["order-3", "order-2"])
        let failed = try await client.send(.get, "/payments/status/failed?from=0&to=\(to)")
        #expect(((failed.json["response"] as? [String: Any])?["total"] as? Int) == 1)
    }

    @Test("a bad status or bound is 400, and the listing needs a token", arguments: [
        "/payments/status/refunded", "/payments/status/paid?limit=101", "/payments/status/paid?page=0",
        "/payments/status/paid?from=10&to=5", "/payments/status/paid?to=soon",
    ])
    func refusals(path: String) async throws {
        let (simulator, _) = try Self.simulator(paying: 1)
        var client = SimulatorClient(simulator: simulator)
        #expect(try await client.send(.get, path).status == 401)
        try await client.authenticate()
        let answer = try await client.send(.get, path)
        #expect(answer.status == 400 && answer.json["code"] as? Int == -1 && answer.json["response"] is NSNull)
    }

    @Test("the listing is served by an index, for a status and for all")
    func queryPlans() async throws {
        let database = try SQLiteDatabase(path: ":memory:")
        _ = try SchemaMigrator(migrations: PGStore.migrations).migrate(database)
        let plans = try await database.read { connection in
            try ["SELECT * FROM pg_payments WHERE status = 'paid' AND started_at >= 0 AND started_at <= 1 ORDER BY started_at DESC, seq DESC",
                 "SELECT * FROM pg_payments WHERE started_at >= 0 AND started_at <= 1 ORDER BY started_at DESC, seq DESC"]
                .map { sql in try connection.query("EXPLAIN QUERY PLAN " + sql) { $0.string(3) }.joined(separator: "; ") }
        }
        #expect(plans[0].contains("pg_payments_by_status_time") && !plans[0].contains("TEMP B-TREE"), "\(plans[0])")
        #expect(plans[1].contains("pg_payments_by_time") && !plans[1].contains("TEMP B-TREE"), "\(plans[1])")
    }

    @Test("a new payment's sequence number comes from an index, not a read of every payment")
    func sequencePlan() async throws {
        let database = try SQLiteDatabase(path: ":memory:")
        _ = try SchemaMigrator(migrations: PGStore.migrations).migrate(database)
        let plan = try await database.read { connection in
            try connection.query("EXPLAIN QUERY PLAN " + PGStore.insertPaymentSQL,
                                 Array(repeating: .null, count: 11)) { $0.string(3) }.joined(separator: "; ")
        }
        // Without the index SQLite still says SEARCH here, but reads every row for max(seq).
        #expect(plan.contains("USING COVERING INDEX pg_payments_by_seq"), "\(plan)")
    }
}

/// A clock for the simulator that only moves when the test says so.
final class TestClockBox: Sendable {
    private let seconds = Mutex<TimeInterval>(1_767_225_600)
    func now() -> Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(_ by: TimeInterval) { seconds.withLock { $0 += by } }
}
