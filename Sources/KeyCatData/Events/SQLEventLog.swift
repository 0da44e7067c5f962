import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The event log in the `events` table (``EventSchema``), read in commit order on either store.
package struct SQLEventLog<Database: SQLDatabase>: EventLog {
    private let database: Database

    /// Watches for other processes' and servers' commits only once someone reads ``generation``
    /// (a subscriber, before it reads the log): a process that never subscribes pays nothing for
    /// watching.
    package init(database: Database) {
        self.database = database
    }

    package func events(after position: EventPosition, limit: Int) async throws(KeyCatError) -> [DomainEvent] {
        try await page(after: position, limit: limit).events
    }

    package func page(after position: EventPosition, limit: Int) async throws(KeyCatError) -> EventPage {
        guard (1...1_000).contains(limit) else { throw .validation("limit", "limit must be 1–1,000") }
        guard Database.Connection.dialect.store == .postgres else {
            let events = try await storage {
                try await database.readStatement { connection in
                    try connection.query(Self.sqlitePage, [.integer(position.sequence), .int(limit)], Self.decode)
                }
            }
            return EventPage(events: events, isBehind: false)
        }
        // Ordered by transaction, the readable rows (older than every running transaction) are
        // a prefix: the first that is not ends the page and says the reader is behind.
        let rows = try await storage {
            try await database.readStatement { connection in
                try connection.query(Self.postgresPage, [.text(String(position.transaction)), .integer(position.sequence), .int(limit)]) {
                    (event: try Self.decode($0), readable: $0.int(9) == 1)
                }
            }
        }
        let readable = rows.prefix { $0.readable }.map(\.event)
        return EventPage(events: readable, isBehind: readable.count < rows.count)
    }

    package func event(id: String) async throws(KeyCatError) -> DomainEvent? {
        try await storage {
            try await database.readStatement { connection in
                try connection.queryOne("SELECT \(Self.columns) FROM events WHERE id = ?", [.text(id)], Self.decode)
            }
        }
    }

    package var generation: UInt64 { database.watchCommits().generation }

    package func waitForEvents(past generation: UInt64, timeout: Duration) async {
        await database.watchCommits().wait(past: generation, timeout: timeout)
    }

    /// Deletes the oldest events up to the first that occurred at or after `date`, walking the
    /// positions (no index on the time: ``EventSchema``), and never the newest event, so a SQLite
    /// row id is never given again to a later one. Events are written in about the order of
    /// their times; one written late with an older time stays until those before it go.
    ///
    /// At most `batch` events (and their deliveries) go in one transaction: the first prune
    /// after a long pause, or after the retention was shortened, may meet millions, and one
    /// transaction of them would hold SQLite's writer, checkouts included, or on Postgres hold
    /// back the event stream and the webhooks' fan-out, for as long as it ran.
    package func prune(before date: Date) async throws(KeyCatError) -> Int {
        try await prune(before: date, batch: 10_000)
    }

    /// ``prune(before:)`` at most `batch` events a transaction.
    package func prune(before date: Date, batch: Int) async throws(KeyCatError) -> Int {
        try await storage {
            let first = try await database.read { connection in
                try connection.queryOne("""
                    SELECT coalesce(
                        (SELECT position FROM events WHERE occurred_at >= ? ORDER BY position LIMIT 1),
                        (SELECT max(position) FROM events))
                    """, [StoredTime.value(date)]) { $0.optionalInt64(0) } ?? nil
            }
            guard let first else { return 0 }
            var pruned = 0
            while true {
                let deleted = try await database.write(isolation: .readCommitted) { connection in
                    try connection.run("""
                        DELETE FROM events WHERE position IN (SELECT position FROM events WHERE position < ? ORDER BY position LIMIT ?)
                        """, [.integer(first), .int(batch)])
                }
                pruned += deleted
                if deleted < batch { return pruned }
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

    /// Readable only once its transaction is older than every transaction still running: a row
    /// of an older transaction can then no longer appear behind the reader (``EventSchema``).
    private static var postgresPage: String {
        """
        SELECT \(columns), CASE WHEN transaction_id < pg_snapshot_xmin(pg_current_snapshot()) THEN 1 ELSE 0 END
        FROM events
        WHERE (transaction_id, position) > (CAST(? AS xid8), ?)
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
