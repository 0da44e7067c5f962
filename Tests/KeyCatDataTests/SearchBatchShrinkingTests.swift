import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCatData

/// A catch-up or rebuild batch that keeps losing to the writes beside it is made smaller until
/// it wins (`SearchMaintenance`), and one of a single listing that still loses fails the call.
@Suite("Search batches that lose to other writes")
struct SearchBatchShrinkingTests {
    /// The failure Postgres gives a transaction once its retries are spent.
    struct LostToOthers: DatabaseError {
        var message: String { "could not serialize access due to concurrent update" }
        var codeContext: (key: String, value: String) { ("sql_state", "40001") }
        var isUniqueViolation: Bool { false }
        var isCancelled: Bool { false }
        var isUnstorableText: Bool { false }
        var isNotADatabase: Bool { false }
        var isCannotOpen: Bool { false }
        var isLockWaitExpired: Bool { false }
        var isTransientTransactionFailure: Bool { true }
        var description: String { message }
    }

    /// A database whose next `failing` write transactions run their body, then roll back with
    /// ``LostToOthers``; it records how many listings each write indexed.
    struct LosingDatabase<Base: SQLDatabase>: SQLDatabase {
        typealias Connection = Base.Connection
        let base: Base
        let record: Record

        /// Shared by every copy of the database.
        final class Record: Sendable {
            let failing: Atomic<Int>
            let batches = Mutex<[(documents: Int, failed: Bool)]>([])
            init(failing: Int) { self.failing = Atomic(failing) }
        }

        init(_ base: Base, failing: Int) {
            self.base = base
            record = Record(failing: failing)
        }

        var batches: [(documents: Int, failed: Bool)] { record.batches.withLock { $0 } }

        var storageExecutor: any TaskExecutor { base.storageExecutor }

        func write<Result: Sendable>(isolation: SQLIsolation, _ body: (Connection) throws -> Result) async throws -> Result {
            try await base.write(isolation: isolation) { connection in
                let before = try Self.documents(on: connection)
                let result = try body(connection)
                let written = try Self.documents(on: connection) - before
                let fails = record.failing.wrappingSubtract(1, ordering: .relaxed).oldValue > 0
                record.batches.withLock { $0.append((written, fails)) }
                if fails { throw LostToOthers() }
                return result
            }
        }

        private static func documents(on connection: Connection) throws -> Int {
            try connection.queryOne("SELECT count(*) FROM search_documents", []) { $0.int(0) } ?? 0
        }

        func read<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result { try await base.read(body) }
        func readStatement<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
            try await base.readStatement(body)
        }
        func withConnection<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
            try await base.withConnection(body)
        }
        func blockingWithConnection<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
            try base.blockingWithConnection(body)
        }
        func watchCommits() -> ChangeSignal { base.watchCommits() }
        func close() { base.close() }
    }

    /// 41 listings (`count` + 1), none of them indexed, as a database from before search holds
    /// them; with `keepingWords`, the vocabulary's rows stay, counting none.
    static func unindexed(_ database: some SQLDatabase, count: Int = 40, keepingWords: Bool = false) async throws {
        let clock = TestClock()
        let (first, _) = try await CommerceHarness.stock(database, units: 5, clock: clock)
        let products = SQLProductRepository(database: database)
        for number in 0..<count {
            var draft = CommerceHarness.draft(5)
            draft.title = "키보드 에디션 \(number)호"
            _ = try await products.insert(draft, sellerID: first.sellerID, images: [], at: clock.now(), audit: nil)
        }
        try await database.write { connection in
            try connection.execute("""
                DELETE FROM search_terms; DELETE FROM search_documents;
                \(keepingWords ? "UPDATE search_words SET products = 0" : "DELETE FROM search_words");
                DELETE FROM settings WHERE key = 'search.analyzer_version'
                """)
        }
    }

    @Test("a catch-up whose batches lose eight times halves them to one listing, then doubles them back, and indexes every listing")
    func catchUpShrinks() async throws {
        try await withTestDatabase { database in
            try await Self.unindexed(database)
            let losing = LosingDatabase(database, failing: 8)
            #expect(try await Self.lossesOnly(losing).catchUp() == 41)
            // 500, 250, … 3 lost (each indexed what it found, then rolled back); then 1, 2, 4, 8, 16, and the last 10 of 32.
            #expect(losing.batches.map(\.failed) == Array(repeating: true, count: 8) + Array(repeating: false, count: 6))
            #expect(losing.batches.map(\.documents) == [41, 41, 41, 41, 31, 15, 7, 3, 1, 2, 4, 8, 16, 10])
            #expect(try await SearchMaintenance(database: database).problems() == [])
        }
    }

    /// Maintenance whose batches start at 500 and change size only when they lose: no batch
    /// of these tests reaches a budget of an hour, however loaded the machine.
    static func lossesOnly<Database: SQLDatabase>(_ database: Database) -> SearchMaintenance<Database> {
        SearchMaintenance(database: database, batchBudget: .seconds(3_600), firstBatch: SearchIndex.batchSize)
    }

    /// Forgets the whole index, as a database from before search.
    static func forget(_ database: some SQLDatabase) async throws {
        try await database.write { connection in
            try connection.execute("""
                DELETE FROM search_terms; DELETE FROM search_documents; DELETE FROM search_words;
                DELETE FROM settings WHERE key = 'search.analyzer_version'
                """)
        }
    }

    @Test("a batch within its budget grows the next only as far as its pace fits the budget, so no doubling overruns it")
    func growthFollowsPace() {
        typealias Maintenance = SearchMaintenance<SQLiteDatabase>
        let second = Duration.seconds(1)
        #expect(Maintenance.nextSize(after: 250, took: .milliseconds(900), budget: second) == 277)
        #expect(Maintenance.nextSize(after: 50, took: .milliseconds(100), budget: second) == 100, "well within: doubled")
        #expect(Maintenance.nextSize(after: 400, took: .milliseconds(100), budget: second) == SearchIndex.batchSize)
        #expect(Maintenance.nextSize(after: 100, took: .milliseconds(999), budget: second) == 100, "at the budget: kept")
        #expect(Maintenance.nextSize(after: 100, took: .milliseconds(1_001), budget: second) == 50, "over it: halved")
        #expect(Maintenance.nextSize(after: 1, took: .seconds(9), budget: second) == 1)
        #expect(Maintenance.nextSize(after: 40, took: .zero, budget: second) == 80)
    }

    @Test("a batch that took longer than its budget halves the next, so a slow machine holds the writer in shorter turns")
    func slowBatchesShrink() async throws {
        try await withTestDatabase { database in
            try await Self.unindexed(database, count: 799)
            let timed = LosingDatabase(database, failing: 0)
            #expect(try await SearchMaintenance(database: timed, batchBudget: .zero, firstBatch: SearchIndex.batchSize).catchUp() == 800)
            #expect(timed.batches.map(\.documents) == [500, 250, 50], "every batch over a budget of nothing: 500, 250, then the last 50")
            // Within a budget no batch reaches, as before: 500, then the last 300 of 500.
            try await Self.forget(database)
            let quick = LosingDatabase(database, failing: 0)
            #expect(try await Self.lossesOnly(quick).catchUp() == 800)
            #expect(quick.batches.map(\.documents) == [500, 300])
            // By default the first batch is small and each within budget doubles the next.
            try await Self.forget(database)
            let starting = LosingDatabase(database, failing: 0)
            #expect(try await SearchMaintenance(database: starting, batchBudget: .seconds(3_600)).catchUp() == 800)
            #expect(starting.batches.map(\.documents) == [50, 100, 200, 400, 50])
            #expect(try await SearchMaintenance(database: database).problems() == [])
        }
    }

    @Test("a catch-up or rebuild whose batch of one listing still loses fails with the storage error, and what it wrote is rolled back")
    func oneListingStillLoses() async throws {
        try await withTestDatabase { database in
            try await Self.unindexed(database)
            let losing = LosingDatabase(database, failing: .max)
            await #expect(throws: KeyCatError.self) { try await Self.lossesOnly(losing).catchUp() }
            #expect(losing.batches.map(\.documents) == [41, 41, 41, 41, 31, 15, 7, 3, 1])
            #expect(try await database.read { try $0.queryOne("SELECT count(*) FROM search_documents", []) { $0.int(0) } } == 0)
            // The rebuild, over the index the database then caught up itself.
            #expect(try await SearchMaintenance(database: database).catchUp() == 41)
            let rebuilding = LosingDatabase(database, failing: .max)
            await #expect(throws: KeyCatError.self) { try await Self.lossesOnly(rebuilding).reindex() }
            #expect(rebuilding.batches.map(\.failed) == Array(repeating: true, count: 9))
            #expect(try await SearchMaintenance(database: database).problems() == [])
        }
    }

    /// The same with a real loss: a batch that counts a word another transaction changed after
    /// its snapshot fails with Postgres's serialization failure, here on its only attempt.
    @Test("on Postgres a catch-up batch that loses to a write of a word it counts runs again with half the listings",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func postgresBatchLosesToAWord() async throws {
        try await withPostgresSchema { configuration in
            var oneAttempt = configuration
            oneAttempt.maximumTransactionAttempts = 1
            let database = try PostgresDatabase(configuration: oneAttempt)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database, now: Date(timeIntervalSince1970: 1_767_225_600))
            // The words keep their rows, so the batch counts them up, row by row.
            try await Self.unindexed(database, keepingWords: true)
            let holder = try PostgresConnection(configuration: configuration)
            let watcher = try PostgresConnection(configuration: configuration)
            defer { holder.close(); watcher.close() }
            try holder.execute("BEGIN")
            let held = try holder.run("UPDATE search_words SET products = products WHERE word = '키보드' AND kind = 'word'", [])
            try #require(held == 1)
            let counting = WriteCountingDatabase(base: database)
            let catchingUp = Task { try await Self.lossesOnly(counting).catchUp() }
            // The batch waits for the word's row; the holder's change then commits under it.
            let deadline = Date().addingTimeInterval(20)
            while try watcher.queryOne("SELECT count(*) FROM pg_stat_activity WHERE CAST(? AS int) = ANY(pg_blocking_pids(pid))",
                                       [.int(Int(holder.backendProcessID))], { $0.int(0) }) == 0 {
                try #require(Date() < deadline, "the batch never waited for the word's row")
                try await Task.sleep(for: .milliseconds(5))
            }
            try holder.execute("COMMIT")
            #expect(try await catchingUp.value == 41)
            // The batch of 500 lost; the batch of 250 found all 41.
            #expect(counting.writes.value == 2)
            #expect(try await SearchMaintenance(database: database).problems() == [])
        }
    }
}
