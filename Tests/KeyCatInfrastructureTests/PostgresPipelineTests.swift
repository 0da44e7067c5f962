import Foundation
import Synchronization
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// Statements sent together travel in one round trip, and what fails in a batch leaves the
/// connection as it would be after the same statements sent one by one.
@Suite("Postgres batches and round trips", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresPipelineTests {
    /// A connection in a fresh schema with a table `t (id, n)`, counting from zero round trips.
    private func withTable(_ body: (PostgresConnection) throws -> Void) async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            try connection.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, n BIGINT NOT NULL CHECK (n >= 0))")
            try body(connection)
        }
    }

    /// The round trips `body` takes on `connection`.
    private func roundTrips(on connection: PostgresConnection, _ body: () throws -> Void) rethrows -> Int {
        let before = connection.roundTripCount
        try body()
        return connection.roundTripCount - before
    }

    @Test("a batch of new statements is prepared and run in one round trip, in order, each query's rows to its body, each run counted once")
    func batchIsOneRoundTrip() async throws {
        try await withTable { connection in
            var seen: [Int64] = []
            var counts: [Int] = []
            let preparedBefore = connection.cachedStatementCount
            let statementsBefore = connection.statementCount
            let trips = try roundTrips(on: connection) {
                counts = try connection.batch([
                    .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(1), .integer(10)]),
                    .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(2), .integer(20)]),
                    .run("UPDATE t SET n = n + 1 WHERE id >= ?", [.integer(1)]),
                    .query("SELECT n FROM t ORDER BY id", []) { seen.append($0.int64(0)) },
                ])
            }
            #expect(trips == 1)
            #expect(counts == [1, 1, 2, 2])
            #expect(seen == [11, 21])
            // The same texts again: prepared already, still one round trip.
            let trips1 = try roundTrips(on: connection) {
                try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(3), .integer(30)]),
                                      .query("SELECT n FROM t ORDER BY id", []) { _ in }])
            }
            #expect(trips1 == 1)
            #expect(connection.cachedStatementCount == preparedBefore + 3)
            // Six statements run; the three prepared on the way are not counted.
            #expect(connection.statementCount - statementsBefore == 6)
        }
    }

    @Test("a failing statement is thrown, the ones after it do not run, and the connection goes on")
    func failureStopsTheBatch() async throws {
        try await withTable { connection in
            let error = try #require(throws: PostgresError.self) {
                try connection.batch([
                    .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(1), .integer(1)]),
                    .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(2), .integer(-1)]),
                    .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(3), .integer(3)]),
                ])
            }
            #expect(error.isCheckViolation)
            // Outside a transaction a batch is one implicit transaction: the first insert went too.
            #expect(try connection.queryOne("SELECT count(*) FROM t") { $0.int(0) } == 0)
            // A statement whose Parse fails is not remembered as prepared; a later good one runs.
            #expect(throws: PostgresError.self) {
                try connection.batch([.run("SELEC nonsense", []), .run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(4), .integer(4)])])
            }
            try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(5), .integer(5)])])
            #expect(try connection.queryOne("SELECT count(*) FROM t") { $0.int(0) } == 1)
            // A value refused before sending leaves nothing half sent.
            #expect(throws: PostgresError.self) {
                try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(6), .integer(6)]),
                                      .run("SELECT ?::text", [.text("a\u{0}b")])])
            }
            #expect(try connection.queryOne("SELECT count(*) FROM t") { $0.int(0) } == 1)
        }
    }

    @Test("a transaction's BEGIN travels with its first statement; one that runs nothing costs nothing")
    func beginTravelsWithTheFirstStatement() async throws {
        try await withTable { connection in
            let trips2 = try roundTrips(on: connection) {
                try connection.transaction(isolation: .serializable) { _ in }
            }
            #expect(trips2 == 0)
            // BEGIN + insert, then COMMIT.
            let trips3 = try roundTrips(on: connection) {
                try connection.transaction(isolation: .serializable) { connection in
                    _ = try connection.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(1), .integer(1)])
                }
            }
            #expect(trips3 == 2)
            #expect(!connection.isInTransaction)
            // A failure in the first exchange rolls the whole transaction back.
            #expect(throws: PostgresError.self) {
                try connection.transaction(isolation: .readCommitted) { connection in
                    try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(2), .integer(2)]),
                                          .run("UPDATE t SET n = -1 WHERE id = ?", [.integer(1)])])
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try connection.query("SELECT id, n FROM t ORDER BY id") { [$0.int64(0), $0.int64(1)] } == [[1, 1]])
        }
    }

    @Test("a read-only transaction of one batch is one round trip; its COMMIT is read by the next exchange")
    func readTransactionIsOneRoundTrip() async throws {
        try await withTable { connection in
            try connection.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(1), .integer(7)])
            var read: [Int64] = []
            let trips4 = try roundTrips(on: connection) {
                try connection.readTransaction { connection in
                    _ = try connection.batch([.query("SELECT n FROM t", []) { read.append($0.int64(0)) },
                                              .query("SELECT count(*) FROM t", []) { read.append($0.int64(0)) }])
                }
            }
            #expect(trips4 == 1)
            #expect(read == [7, 1])
            // The COMMIT's answer is outstanding, yet the connection counts as out of any transaction
            // (a pool may lend it again) and is still usable.
            #expect(connection.hasUnansweredCommit)
            #expect(!connection.isInTransaction)
            #expect(connection.checkUsable())
            // The next write sees the read's transaction ended: its own commits.
            try connection.transaction(isolation: .serializable) { connection in
                try connection.run("UPDATE t SET n = 8 WHERE id = ?", [.integer(1)])
            }
            #expect(!connection.hasUnansweredCommit)
            #expect(try connection.queryOne("SELECT n FROM t") { $0.int64(0) } == 8)
            // execute (plain PQexec) also reads an outstanding COMMIT first.
            try connection.readTransaction { connection in _ = try connection.queryOne("SELECT 1", []) { $0.int(0) } }
            try connection.execute("CREATE INDEX t_n ON t (n)")
            #expect(!connection.hasUnansweredCommit)
        }
    }

    @Test("a write's last batch carries its COMMIT: one round trip, a failure in it rolls everything back")
    func lastBatchCommits() async throws {
        try await withTable { connection in
            var read: [Int64] = []
            // BEGIN, the inserts, the read-back and COMMIT: one exchange.
            let trips = try roundTrips(on: connection) {
                try connection.transaction(isolation: .readCommitted) { connection in
                    _ = try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(1), .integer(1)]),
                                          .query("SELECT n FROM t", []) { read.append($0.int64(0)) }],
                                         endingTransaction: true)
                }
            }
            #expect(trips == 1)
            #expect(read == [1])
            #expect(!connection.isInTransaction)
            // After a first exchange: the conditional update, then the last batch with COMMIT.
            let trips2 = try roundTrips(on: connection) {
                try connection.transaction(isolation: .serializable) { connection in
                    guard try connection.run("UPDATE t SET n = n + 1 WHERE id = ? AND n = ?", [.integer(1), .integer(1)]) == 1 else { return }
                    try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(2), .integer(2)])],
                                         endingTransaction: true)
                }
            }
            #expect(trips2 == 2)
            // A failing statement in the last batch: COMMIT is skipped and everything rolls back.
            #expect(throws: PostgresError.self) {
                try connection.transaction(isolation: .readCommitted) { connection in
                    try connection.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(3), .integer(3)])
                    try connection.batch([.run("UPDATE t SET n = -1 WHERE id = ?", [.integer(1)])], endingTransaction: true)
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try connection.query("SELECT id, n FROM t ORDER BY id") { [$0.int64(0), $0.int64(1)] } == [[1, 2], [2, 2]])
            // Nothing may run after the last batch: it would run outside the transaction.
            #expect(throws: PostgresError.self) {
                try connection.transaction(isolation: .readCommitted) { connection in
                    try connection.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(4), .integer(4)])],
                                         endingTransaction: true)
                    try connection.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(5), .integer(5)])
                }
            }
            #expect(try connection.query("SELECT id FROM t ORDER BY id") { $0.int64(0) } == [1, 2, 4])
            // Inside a savepoint it is a plain batch: the outer transaction commits.
            try connection.transaction(isolation: .readCommitted) { connection in
                try connection.transaction(isolation: .readCommitted) { inner in
                    try inner.batch([.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(6), .integer(6)])], endingTransaction: true)
                }
                #expect(connection.isInTransaction)
                try connection.run("INSERT INTO t (id, n) VALUES (?, ?)", [.integer(7), .integer(7)])
            }
            #expect(try connection.query("SELECT id FROM t ORDER BY id") { $0.int64(0) } == [1, 2, 4, 6, 7])
        }
    }

    /// The COMMIT may have run when the connection broke, so running the write again could do it
    /// twice: the database must throw, not retry.
    @Test("a connection lost during a last batch is a commit whose outcome is unknown, and the write is not run again")
    func lostLastBatchIsNotRetried() async throws {
        try await withPostgresSchema { configuration in
            let database = try PostgresDatabase(configuration: configuration)
            defer { database.close() }
            try await database.withConnection { try $0.execute("CREATE TABLE t (id BIGINT PRIMARY KEY)") }
            let attempts = Mutex(0)
            let error = try await #require(throws: PostgresError.self) {
                try await database.write(isolation: .readCommitted) { connection in
                    attempts.withLock { $0 += 1 }
                    try connection.batch([.run("INSERT INTO t (id) VALUES (?)", [.integer(1)]),
                                          .run("SELECT pg_terminate_backend(pg_backend_pid())", [])],
                                         endingTransaction: true)
                }
            }
            #expect(error.isCommitOutcomeUnknown)
            #expect(attempts.withLock { $0 } == 1)
            // The server rolled the transaction back when its backend ended.
            await #expect(try database.readStatement { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } } == 0)
        }
    }

    @Test("a connection closed by the server mid-batch is a lost connection, not a hang")
    func serverClosesDuringBatch() async throws {
        try await withPostgresSchema { configuration in
            let victim = try PostgresConnection(configuration: configuration)
            defer { victim.close() }
            let pid = victim.backendProcessID
            let error = try #require(throws: PostgresError.self) {
                try victim.batch([.run("SELECT pg_sleep(0.2)", []),
                                  .run("SELECT pg_terminate_backend(?)", [.integer(Int64(pid))]),
                                  .run("SELECT 1", [])])
            }
            #expect(error.isConnectionLost)
        }
    }
}
