import KeyCatDomain
import KeyCatInfrastructure

/// Writes events inside the transaction of the change they report, so they commit or roll back
/// with it, and asks that the transaction be announced when it commits (waking subscribers here
/// and on the other servers: ``SQLConnection/announceOnCommit()``).
package enum EventOutbox {
    /// Writes `events` on a connection already inside a write transaction.
    package static func append(_ events: [DomainEvent], on connection: some SQLConnection) throws {
        guard !events.isEmpty else { return }
        for event in events { try connection.run(insertSQL, values(event)) }
        connection.announceOnCommit()
    }

    /// Writes `event` on a connection already inside a write transaction.
    package static func append(_ event: DomainEvent, on connection: some SQLConnection) throws {
        try append([event], on: connection)
    }

    /// The statements that write `events`, for a batch the caller runs in the transaction of
    /// `connection` (which is asked to announce its commit now).
    package static func statements<Connection: SQLConnection>(
        _ events: [DomainEvent], on connection: Connection
    ) -> [SQLStatement<Connection.Row>] {
        guard !events.isEmpty else { return [] }
        connection.announceOnCommit()
        return events.map { .run(insertSQL, values($0)) }
    }

    private static let insertSQL = """
        INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    private static func values(_ event: DomainEvent) -> [SQLValue] {
        [.text(event.id), .text(event.type.rawValue), .text(event.aggregate.kind.rawValue), .integer(event.aggregate.id),
         StoredTime.value(event.occurredAt), .int(event.schemaVersion), .text(event.data.json())]
    }
}
