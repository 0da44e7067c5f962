import Foundation
@testable import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// The runs race on both stores (``TestStore``). A database that fails `db check` is made by
/// switching SQLite's foreign keys off and editing the file's bytes, so that case is SQLite's.
@Suite("Payment-flow simulation")
struct PaymentSimulationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var options: PaymentSimulation.Options
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        func options(_ change: (inout PaymentSimulation.Options) -> Void) -> PaymentSimulation.Options {
            var options = PaymentSimulation.Options()
            options.orders = 120
            options.buyers = 24
            options.products = 3
            options.stock = 15
            change(&options)
            return options
        }
        return [
            Case(name: "no faults, sellers refunding lines of half the orders", options: options { $0.lineRefundRate = 0.5 }),
            Case(name: "PG 5xx, lost answers, duplicate and reordered webhooks", options: options {
                $0.faultRate = 0.1
                $0.timeoutRate = 0.1
                $0.webhookDuplicateRate = 0.5
                $0.declineRate = 0.2
                $0.seed = 7
            }),
            Case(name: "every answer lost, nobody confirms: reconciliation settles everything", options: options {
                $0.timeoutRate = 0.3
                $0.skipConfirmRate = 1
                $0.seed = 11
            }),
        ]
    }()

    @Test("dozens of concurrent buyers racing for the last units: after reconcile every invariant holds",
          arguments: TestStore.allCases, cases)
    func racingBuyers(_ store: TestStore, _ scenario: Case) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            let report = try await PaymentSimulation.run(store: configuration, options: scenario.options)
            #expect(report.holds, "\(report)")
            #expect(report.ordersAttempted == scenario.options.orders)
            #expect(report.outOfStock > 0, "the buyers should have run out of units: \(report)")
            #expect(report.oversoldUnits == 0 && report.ordersChargedTwice == 0)
            #expect(report.paidPaymentsWithoutPaidOrder == 0 && report.stockConservationErrors == 0)
            #expect(report.settlementIdentityErrors == 0 && report.ordersWithoutAddress == 0)
            if scenario.options.lineRefundRate >= 0.5 {
                let refunded = report.statusCounts["partially_refunded", default: 0] + report.statusCounts["refunded", default: 0]
                #expect(refunded > 0, "sellers refunded no line: \(report.statusCounts)")
            }
        }
    }

    @Test("two KeyCat instances on one database race for the same units and the invariants hold for both",
          arguments: TestStore.allCases)
    func twoInstancesOneDatabase(_ store: TestStore) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            var options = PaymentSimulation.Options()
            options.orders = 60
            options.buyers = 10
            options.stock = 10
            options.products = 2
            options.timeoutRate = 0.1
            options.webhookDuplicateRate = 0.3
            options.sharedCatalog = "shared"  // both race for the same units
            try await KeyCat.open(configuration).close()
            var other = options
            other.seed = 99
            let firstOptions = options, secondOptions = other
            async let first = PaymentSimulation.run(store: configuration, options: firstOptions)
            async let second = PaymentSimulation.run(store: configuration, options: secondOptions)
            let reports = try await [first, second]
            for report in reports { #expect(report.holds, "\(report)") }
        }
    }

    /// Breaks the database at `path` outside KeyCat's own invariants (SQLite only: the cases
    /// turn SQLite's foreign keys off and change bytes in the file, which SQLite's own checks
    /// must find): a row whose foreign key
    /// points nowhere, or an index entry that no longer matches its row (bytes changed in the
    /// file, as a bad disk would).
    static func breakDatabase(at path: String, _ section: String) async throws {
        let database = try SQLiteDatabase(path: path)
        if section == "foreign_keys:" {
            try database.withWriter {
                try $0.execute("PRAGMA foreign_keys = OFF; INSERT INTO refresh_token_families (user_id, created_at) VALUES (4242, 0)")
            }
            database.close()
            return
        }
        try database.withWriter {
            try $0.execute("""
                CREATE TABLE scratch (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX scratch_v ON scratch (v);
                INSERT INTO scratch (v) VALUES ('marker-aaaa'); PRAGMA wal_checkpoint(TRUNCATE)
                """)
        }
        let (root, pageSize) = try await database.read { connection in
            (try connection.queryOne("SELECT rootpage FROM sqlite_schema WHERE name = 'scratch_v'") { $0.int(0) } ?? 0,
             try connection.queryOne("PRAGMA page_size") { $0.int(0) } ?? 0)
        }
        database.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let page = (root - 1) * pageSize..<root * pageSize
        let marker = try #require(bytes.range(of: Data("marker-aaaa".utf8), in: page))
        bytes.replaceSubrange(marker, with: Data("marker-zzzz".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test("a run on a database that fails db check does not hold, even when KeyCat's invariants do",
          arguments: ["foreign_keys:", "integrity:"])
    func brokenDatabaseFailsTheRun(_ section: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("broken.db").path
            try await KeyCat.open(KeyCat.Configuration(databasePath: path)).close()
            try await Self.breakDatabase(at: path, section)
            var options = PaymentSimulation.Options()
            options.orders = 20
            options.buyers = 4
            options.products = 2
            let report = try await PaymentSimulation.run(databasePath: path, options: options)
            #expect(!report.holds && !report.databaseHealthy, "\(report)")
            #expect(report.databaseProblems > 0)
            #expect(report.databaseProblemDetails.contains { $0.hasPrefix(section) }, "\(report.databaseProblemDetails)")
            #expect(report.oversoldUnits == 0 && report.ordersChargedTwice == 0 && report.unsettledOrders == 0)
        }
    }

    @Test("a run refuses a shop's database, one holding accounts it did not create, and writes nothing there, not even a migration",
          arguments: TestStore.allCases)
    func refusesAShopsDatabase(_ store: TestStore) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            var shop = configuration
            shop.passwordIterations = 1_000
            let keycat = try await KeyCat.open(shop)
            _ = try await keycat.accounts.signUp(SignUpForm(email: "buyer@example.com", password: "buyer-password-1", nick: "buyer"))
            // The shop runs a build from before migrations 43 to 45.
            let older = 42
            try await Self.execute("""
                ALTER TABLE refunds DROP COLUMN requested_by; ALTER TABLE search_documents DROP COLUMN value_sold;
                ALTER TABLE business_registry DROP COLUMN representative_name; ALTER TABLE business_registry DROP COLUMN opening_date;
                DELETE FROM schema_migrations WHERE version > 42
                """,
                                   on: keycat.store.database)
            keycat.close()
            var options = PaymentSimulation.Options()
            options.orders = 5
            options.buyers = 2
            let refused = await expectFailure(.illegalTransition) { try await PaymentSimulation.run(store: configuration, options: options) }
            #expect(refused?.message.contains("1 account no simulation created") == true, "\(String(describing: refused))")
            var unmigrated = shop
            unmigrated.migrates = false
            let found = try await KeyCat.open(unmigrated)
            await #expect(try found.schemaVersion() == older)
            found.close()
            let after = try await KeyCat.open(shop)
            defer { after.close() }
            let users = try await after.accounts.listUsers(by: .operatorConsole("test")).items
            #expect(users.map(\.email) == ["buyer@example.com"])
        }
    }

    private static func execute(_ sql: String, on database: some SQLDatabase) async throws {
        try await database.write { try $0.execute(sql) }
    }

    @Test("a run commits as production does, synchronous=FULL, unless told otherwise")
    func durabilityDefault() {
        #expect(PaymentSimulation.Options().durability == .full)
    }
}
