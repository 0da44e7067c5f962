import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// The sweep's plan is SQLite's `EXPLAIN QUERY PLAN`, so that case is SQLite's alone; the sweep
/// itself runs on every store.
@Suite("Expired idempotency keys are swept off the claim path, a bounded batch at a time, through an index")
struct IdempotencySweepTests {
    /// A migrated database in a temporary directory, closed afterwards.
    func withDatabase(_ body: (SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("keys.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            try await body(database)
        }
    }

    func keyCount(_ database: some SQLDatabase) async throws -> Int {
        try await database.read { try $0.queryOne("SELECT count(*) FROM idempotency_keys", []) { $0.int(0) } ?? 0 }
    }

    @Test("the sweep reads the expiry index, never the whole table")
    func sweepUsesTheIndex() async throws {
        try await withDatabase { database in
            let plan = try await database.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + SQLIdempotencyStore<SQLiteDatabase>.sweepSQL, [.integer(0), .integer(500)]) { $0.string(3) }
            }
            let text = plan.joined(separator: " | ")
            #expect(text.contains("idempotency_keys_by_expiry"), "\(text)")
            for step in plan where step.hasPrefix("SCAN") {
                #expect(step.contains("USING"), "the sweep scans a table: \(text)")
            }
        }
    }

    @Test("a claim deletes nothing; a sweep deletes only expired keys, oldest first, at most its limit",
          arguments: Backend.stored)
    func boundedSweep(_ backend: Backend) async throws {
        switch backend {
        case .sqlite: try await withTestDatabase { try await boundedSweep(in: $0) }
        case .postgres: try await withPostgresTestDatabase { try await boundedSweep(in: $0) }
        case .inMemory: Issue.record("the in-memory store has its own case below")
        }
    }

    func boundedSweep(in database: some SQLDatabase) async throws {
        do {
            let store = SQLIdempotencyStore(database: database)
            let start = Date(timeIntervalSince1970: 1_000_000)
            for index in 0..<5 {
                let at = start.addingTimeInterval(Double(index))
                _ = try await store.claim(scope: "s", key: "old\(index)", fingerprint: "f", at: at, retention: 10, lease: 1)
            }
            // Long after every old key expired, a new claim leaves them in place.
            let later = start.addingTimeInterval(1_000)
            _ = try await store.claim(scope: "s", key: "new", fingerprint: "f", at: later, retention: 10, lease: 1)
            await #expect(try keyCount(database) == 6)
            #expect(try await store.sweepExpired(before: later, limit: 3) == 3)
            let left = try await database.read { try $0.query("SELECT key FROM idempotency_keys ORDER BY key", []) { $0.string(0) } }
            #expect(left == ["new", "old3", "old4"])
            #expect(try await store.sweepExpired(before: later, limit: 3) == 2)
            #expect(try await store.sweepExpired(before: later, limit: 3) == 0)
            await #expect(try keyCount(database) == 1)
        }
    }

    @Test("the in-memory store sweeps the same way")
    func inMemorySweep() throws {
        let store = InMemoryIdempotencyStore()
        let start = Date(timeIntervalSince1970: 1_000_000)
        for index in 0..<3 {
            _ = try store.claim(scope: "s", key: "k\(index)", fingerprint: "f", at: start.addingTimeInterval(Double(index)), retention: 10, lease: 1)
        }
        #expect(try store.sweepExpired(before: start.addingTimeInterval(11), limit: 1) == 1)
        #expect(try store.sweepExpired(before: start.addingTimeInterval(11), limit: 5) == 1)
        #expect(try store.sweepExpired(before: start.addingTimeInterval(11), limit: 5) == 0)
    }
}
