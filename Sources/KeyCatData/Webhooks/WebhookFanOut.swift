import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Turns events into deliveries (docs/webhooks.md "Fan-out"): reads the event log after the
/// position stored in `webhook_dispatch`, creates one delivery per event and enabled endpoint
/// that selects its type and existed when it occurred, and stores the new position — all in one
/// transaction, the position's row locked on Postgres, so every event fans out exactly once
/// however many servers run the delivery loop.
enum WebhookFanOut {
    /// The few columns of an event a delivery row needs.
    struct EventRow {
        static let columns = "id, type, aggregate_kind, aggregate_id, occurred_at"

        let id: String
        let type: EventType
        let aggregateKind: String
        let aggregateID: Int64
        let occurredAt: Int64

        static func decode(_ row: some SQLRow) throws -> EventRow {
            EventRow(id: row.string(0), type: EventType(rawValue: row.string(1)), aggregateKind: row.string(2),
                     aggregateID: row.int64(3), occurredAt: row.int64(4))
        }
    }

    /// What one pass did.
    struct Pass {
        /// Events read from the log (a full batch means there may be more).
        var events = 0
        var deliveries = 0
        /// Whether committed events wait beyond what could be read (Postgres: behind a
        /// transaction still running somewhere on the server), so the log is worth reading again
        /// soon without a new wake-up.
        var held = false
    }

    /// Fans out up to `limit` events on a connection inside a write transaction.
    static func run<Connection: SQLConnection>(limit: Int, at now: Date, on connection: Connection) throws -> Pass {
        let postgres = Connection.dialect.store == .postgres
        let position = try connection.queryOne(
            "SELECT event_transaction, event_position FROM webhook_dispatch WHERE id = 1" + (postgres ? " FOR UPDATE" : ""), []
        ) { EventPosition(transaction: UInt64($0.int64(0)), sequence: $0.int64(1)) } ?? .start
        // The event log's own reading (SQLEventLog): in commit order, and on Postgres only rows
        // of transactions that ended before every one still running, so none is passed over.
        var events: [(position: EventPosition, row: EventRow)] = []
        if postgres {
            try connection.forEach(
                """
                SELECT CAST(CAST(transaction_id AS text) AS bigint), position, \(EventRow.columns) FROM events
                WHERE (transaction_id, position) > (CAST(? AS xid8), ?)
                  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                ORDER BY transaction_id, position LIMIT ?
                """, [.text(String(position.transaction)), .integer(position.sequence), .int(limit)]
            ) { row in
                events.append((EventPosition(transaction: UInt64(row.int64(0)), sequence: row.int64(1)), try decodeShifted(row)))
            }
        } else {
            try connection.forEach(
                "SELECT 0, position, \(EventRow.columns) FROM events WHERE position > ? ORDER BY position LIMIT ?",
                [.integer(position.sequence), .int(limit)]
            ) { row in
                events.append((EventPosition(transaction: 0, sequence: row.int64(1)), try decodeShifted(row)))
            }
        }
        guard let last = events.last else {
            guard postgres else { return Pass() }
            let held = try connection.queryOne(
                "SELECT 1 FROM events WHERE (transaction_id, position) > (CAST(? AS xid8), ?) LIMIT 1",
                [.text(String(position.transaction)), .integer(position.sequence)]) { _ in true } ?? false
            return Pass(held: held)
        }
        let endpoints = try connection.query(
            "SELECT id, events, created_at FROM webhook_endpoints WHERE enabled = 1 ORDER BY id", []
        ) { row in
            (id: row.int64(0), patterns: row.string(1).split(separator: ",").compactMap { try? EventPattern(String($0)) },
             createdAt: row.int64(2))
        }
        var statements: [SQLStatement<Connection.Row>] = []
        for (_, event) in events {
            for endpoint in endpoints
            where endpoint.createdAt <= event.occurredAt && endpoint.patterns.contains(where: { $0.matches(event.type) }) {
                statements.append(insertStatement(of: event, to: endpoint.id, at: now))
            }
        }
        statements.append(.run("UPDATE webhook_dispatch SET event_transaction = ?, event_position = ? WHERE id = 1",
                               [.integer(Int64(last.position.transaction)), .integer(last.position.sequence)]))
        try connection.batch(statements)
        return Pass(events: events.count, deliveries: statements.count - 1)
    }

    /// Creates one delivery of `event` to `endpoint`, due at `now`.
    static func insertDelivery(of event: EventRow, to endpoint: Int64, at now: Date, on connection: some SQLConnection) throws {
        let statement: SQLStatement<Void> = insertStatement(of: event, to: endpoint, at: now)
        try connection.run(statement.sql, statement.arguments)
    }

    private static func insertStatement<Row>(of event: EventRow, to endpoint: Int64, at now: Date) -> SQLStatement<Row> {
        .run(
            """
            INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, aggregate_kind, aggregate_id, next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [.integer(endpoint), .text(event.id), .text(event.type.rawValue), .text(event.aggregateKind), .integer(event.aggregateID),
             StoredTime.value(now), StoredTime.value(now)])
    }

    /// An ``EventRow`` from columns 2… (after the position's two).
    private static func decodeShifted(_ row: some SQLRow) throws -> EventRow {
        EventRow(id: row.string(2), type: EventType(rawValue: row.string(3)), aggregateKind: row.string(4),
                 aggregateID: row.int64(5), occurredAt: row.int64(6))
    }
}
