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

    /// The statement that writes `event` with more data read from one row as it stands when the
    /// statement runs (after the batch's earlier writes), the row whose id is `row` in the
    /// reading's table. For a batch that must not wait for a read (a payment's confirm is two
    /// round trips on Postgres): the event's figures come from the row the same batch just
    /// changed. No row, no event.
    package static func statement<Connection: SQLConnection>(
        _ event: DomainEvent, reading: RowReading, row: Int64, on connection: Connection
    ) -> SQLStatement<Connection.Row> {
        connection.announceOnCommit()
        let sql = switch Connection.dialect.store {
        case .sqlite: reading.sqlite
        case .postgres: reading.postgres
        }
        return .run(sql, values(event) + [.integer(row)])
    }

    /// What events read from one kind of row (``statement(_:reading:row:on:)``): each data key
    /// with a SQL expression over the row's table, aliased `t`. The `INSERT … SELECT` of each
    /// store is built once, when the reading is made: checkout, a payment's confirm and a refund
    /// each write one, so a reading is made once, as a `static let`.
    package struct RowReading: Sendable {
        let sqlite: String
        let postgres: String

        package init(_ fields: KeyValuePairs<String, String>, from table: String) {
            func insert(_ data: String) -> String {
                """
                INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
                SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), \(data)
                FROM \(table) t WHERE t.id = ?
                """
            }
            sqlite = insert("json_set(CAST(? AS TEXT)" + fields.map { ", '$.\($0.key)', \($0.value)" }.joined() + ")")
            postgres = insert("CAST(CAST(? AS jsonb) || jsonb_build_object("
                              + fields.map { "'\($0.key)', \($0.value)" }.joined(separator: ", ") + ") AS text)")
        }

        /// What an order event reads from its row: enough for a receiver to act without asking.
        package static let order = RowReading([
            "order_id": "t.id", "merchant_uid": "t.merchant_uid", "buyer_id": "t.buyer_id", "status": "t.status",
            "amount": "t.amount", "refunded_amount": "t.refunded_amount",
        ], from: "orders")
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
