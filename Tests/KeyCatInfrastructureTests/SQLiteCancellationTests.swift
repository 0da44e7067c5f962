import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// A read whose task is cancelled stops inside SQLite (architecture §7), and its reader goes back
/// to the pool clean. The reads here would count for a minute if cancellation did not reach
/// them, so a broken design fails on its answer rather than hanging.
@Suite("SQLite reads of cancelled tasks")
struct SQLiteCancellationTests {
    /// A count that takes about a minute: only cancellation ends it early.
    static let longCount = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000)
        SELECT count(*) FROM n
        """

    private func withDatabase(_ body: (SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            var configuration = SQLiteConfiguration()
            configuration.readerCount = 1  // so the read after the cancelled one reuses its reader
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("t.db").path,
                                              configuration: configuration)
            defer { database.close() }
            try await database.write { connection throws in
                try connection.execute("CREATE TABLE t (x INTEGER NOT NULL)")
                try connection.run("INSERT INTO t VALUES (1)")
            }
            try await body(database)
        }
    }

    /// Starts `read` in a task, cancels the task once the read has begun, and returns its outcome.
    private func cancelledOnceStarted(
        _ read: @escaping @Sendable (@escaping @Sendable () -> Void) async throws -> Int?
    ) async -> Result<Int?, any Error> {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let task = Task { try await read { signal.yield() } }
        for await _ in started { break }
        task.cancel()
        return await task.result
    }

    private func isInterrupted(_ outcome: Result<Int?, any Error>) -> Bool {
        guard case .failure(let error as SQLiteError) = outcome else { return false }
        return error.isInterrupted
    }

    @Test("a single-statement read stops with SQLITE_INTERRUPT, and its reader answers the next read")
    func readStatementStops() async throws {
        try await withDatabase { database in
            let outcome = await cancelledOnceStarted { started in
                try await database.readStatement { connection throws in
                    started()
                    return try connection.queryOne(Self.longCount) { $0.int(0) }
                }
            }
            #expect(isInterrupted(outcome), "got \(outcome)")
            let answer = try await database.readStatement { try $0.queryOne("SELECT 6 * 7") { $0.int(0) } }
            #expect(answer == 42)
        }
    }

    @Test("a snapshot read stops too, and its reader is left outside the old snapshot")
    func snapshotReadStops() async throws {
        try await withDatabase { database in
            let outcome = await cancelledOnceStarted { started in
                try await database.read { connection throws in
                    _ = try connection.queryOne("SELECT count(*) FROM t") { $0.int(0) }
                    started()
                    return try connection.queryOne(Self.longCount) { $0.int(0) }
                }
            }
            #expect(isInterrupted(outcome), "got \(outcome)")
            // Had the interrupted read transaction stayed open, the reader would still see one row.
            try await database.write { try $0.run("INSERT INTO t VALUES (2)") }
            let rows = try await database.read { try $0.queryOne("SELECT count(*) FROM t") { $0.int(0) } }
            #expect(rows == 2)
        }
    }

    @Test("a read of a task that is not cancelled runs past many checks to its answer")
    func uncancelledReadFinishes() async throws {
        try await withDatabase { database in
            // Well past the check interval, so the handler runs many times and lets it go on.
            let count = try await database.readStatement { connection throws in
                try connection.queryOne("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
                    SELECT count(*) FROM n
                    """) { $0.int(0) }
            }
            #expect(count == 200_000)
        }
    }
}
