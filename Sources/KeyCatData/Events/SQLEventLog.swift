import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The event log in the `events` table (``EventSchema``), read in commit order on either store.
package struct SQLEventLog<Database: SQLDatabase>: EventLog {
    private let database: Database
    private let commits: ChangeSignal

    /// Starts watching for other processes' and servers' commits at once, so a subscriber that
    /// starts later misses no wake-up.
    package init(database: Database) {
        self.database = database
        commits = database.watchCommits()
    }

    package func events(after position: EventPosition, limit: Int) async throws(KeyCatError) -> [DomainEvent] {
        guard (1...1_000).contains(limit) else { throw .validation("limit", "limit must be 1–1,000") }
        let hasTransactions = Database.Connection.dialect.store == .postgres
        let sql = hasTransactions ? Self.postgresPage : Self.sqlitePage
        let arguments: [SQLValue] = hasTransactions
            ? [.text(String(position.transaction)), .integer(position.sequence), .int(limit)]
            : [.integer(position.sequence), .int(limit)]
        return try await storage {
            try await database.readStatement { connection in
                try connection.query(sql, arguments, Self.decode)
            }
        }
    }

    package func event(id: String) async throws(KeyCatError) -> DomainEvent? {
        try await storage {
            try await database.readStatement { connection in
                try connection.queryOne("SELECT \(Self.columns) FROM events WHERE id = ?", [.text(id)], Self.decode)
            }
        }
    }

    package var generation: UInt64 { commits.generation }

    package func waitForEvents(past generation: UInt64, timeout: Duration) async {
        await commits.wait(past: generation, timeout: timeout)
    }

    package func prune(before date: Date) async throws(KeyCatError) -> Int {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                try connection.run("DELETE FROM events WHERE occurred_at < ?", [StoredTime.value(date)])
            }
        }
    }

    /// The columns ``decode(_:)`` reads, the transaction first (0 on SQLite).
    private static var columns: String {
        let transaction = Database.Connection.dialect.store == .postgres ? "CAST(CAST(transaction_id AS text) AS bigint)" : "0"
        return "\(transaction), position, id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data"
    }

    private static var sqlitePage: String {
        "SELECT \(columns) FROM events WHERE position > ? ORDER BY position LIMIT ?"
    }

    /// Only rows of transactions that ended before every transaction still running: a row of an
    /// older transaction can no longer appear behind the reader (``EventSchema``).
    private static var postgresPage: String {
        """
        SELECT \(columns) FROM events
        WHERE (transaction_id, position) > (CAST(? AS xid8), ?)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id, position LIMIT ?
        """
    }

    private static func decode(_ row: Database.Connection.Row) throws -> DomainEvent {
        guard let kind = EventAggregate.Kind(rawValue: row.string(4)) else {
            throw KeyCatError(.internalError, "event \(row.string(2)) concerns an unknown kind «\(row.string(4))»")
        }
        return DomainEvent(
            id: row.string(2), type: EventType(rawValue: row.string(3)), occurredAt: StoredTime.date(row.int64(6)),
            aggregate: EventAggregate(kind, row.int64(5)), schemaVersion: Int(row.int64(7)),
            data: try EventData.decoding(row.string(8)),
            position: EventPosition(transaction: UInt64(row.int64(0)), sequence: row.int64(1)))
    }
}
