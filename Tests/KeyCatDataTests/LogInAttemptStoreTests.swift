import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import Testing
@testable import KeyCatData

/// What the stored log-in attempt counts cost the database.
@Suite("Log-in attempt store")
struct LogInAttemptStoreTests {
    private static let start = Date(timeIntervalSince1970: 1_767_225_600)
    private static let pair = LogInThrottleKey(scope: LogInThrottleKey.accountAndClient, value: "kim@example.com\u{0}203.0.113.9", limit: 2)
    private static let account = LogInThrottleKey(scope: LogInThrottleKey.account, value: "kim@example.com", limit: 2,
                                                  slowDown: ThrottleSlowDown(firstDelay: 1, maximumDelay: 60))

    @Test("a refused attempt, refused for the window or slowed down, opens no write transaction and changes no count",
          arguments: Backend.stored)
    func refusalsDoNotWrite(_ backend: Backend) async throws {
        try await withCountingStore(backend) { store, writes, rows in
            #expect(try await store.admit([Self.pair, Self.account], at: Self.start, window: 60) == nil)
            #expect(try await store.admit([Self.pair, Self.account], at: Self.start, window: 60) == nil)
            #expect(writes.value == 2)
            let counted = try await rows()
            // The pair has used its two: refused until its window closes.
            #expect(try await store.admit([Self.pair, Self.account], at: Self.start.addingTimeInterval(1), window: 60) == 59)
            // The account has too: slowed, the next one a second after the last.
            #expect(try await store.admit([Self.account], at: Self.start, window: 60) == 1)
            #expect(writes.value == 2)
            #expect(try await rows() == counted)
            // Once the second has passed, the account's attempt is admitted and counted.
            #expect(try await store.admit([Self.account], at: Self.start.addingTimeInterval(1), window: 60) == nil)
            #expect(writes.value == 3)
            #expect(try await rows() != counted)
        }
    }

    /// A store over `backend`'s database that counts its write transactions, and a reader of its
    /// rows (each as scope, attempts, window start and last attempt).
    private func withCountingStore(
        _ backend: Backend,
        _ body: (any LogInAttemptStore, WriteCount, @escaping () async throws -> [String]) async throws -> Void
    ) async throws {
        let sql = "SELECT scope, attempts, window_start, last_attempt_at FROM login_attempts ORDER BY scope, key_digest"
        let row = { (row: any SQLRow) in "\(row.string(0)) \(row.int64(1)) \(row.int64(2)) \(row.int64(3))" }
        switch backend {
        case .sqlite:
            try await withTestDatabase { database in
                let counting = WriteCountingDatabase(base: database)
                try await body(SQLLogInAttemptStore(database: counting), counting.writes, { try await database.read { try $0.query(sql, [], row) } })
            }
        case .postgres:
            try await withPostgresTestDatabase { database in
                let counting = WriteCountingDatabase(base: database)
                try await body(SQLLogInAttemptStore(database: counting), counting.writes, { try await database.read { try $0.query(sql, [], row) } })
            }
        case .inMemory:
            Issue.record("the in-memory store has no transactions")
        }
    }
}
