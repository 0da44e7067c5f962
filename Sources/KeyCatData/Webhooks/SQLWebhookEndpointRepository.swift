import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Webhook endpoints and their delivery log in the tables of ``WebhookSchema``.
package struct SQLWebhookEndpointRepository<Database: SQLDatabase>: WebhookEndpointRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func add(_ draft: WebhookEndpointDraft, clock: any WallClock, audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                // The fan-out's own row, held until the endpoint is in (Postgres; SQLite's one
                // writer runs the two apart): a fan-out under way ends first, and the time is
                // read after it, so each event it passed over occurred before the endpoint
                // existed; a fan-out after waits, then reads the endpoints and finds this one.
                try connection.run("SELECT 1 FROM webhook_dispatch WHERE id = 1\(connection.dialect.locking(.share))", [])
                let date = clock.now()
                var audit = audit
                audit.at = date
                let id = try connection.insertReturningID(
                    "INSERT INTO webhook_endpoints (url, events, description, secret, created_at) VALUES (?, ?, ?, ?, ?)",
                    [.text(draft.url.rawValue), .text(draft.events.map(\.rawValue).joined(separator: ",")),
                     .text(draft.description), .text(draft.secret.rawValue), StoredTime.value(date)])
                var entry = audit
                entry.target = "webhook_endpoint:\(id)"
                try AuditLogTable.insert(entry, on: connection)
                return try Self.endpoint(id, on: connection)!
            }
        }
    }

    package func endpoints() async throws(KeyCatError) -> [WebhookEndpoint] {
        try await storage {
            try await database.readStatement { connection in
                try connection.query("SELECT \(Self.columns) FROM webhook_endpoints ORDER BY id", [], Self.decode)
            }
        }
    }

    package func endpoint(id: Int64) async throws(KeyCatError) -> WebhookEndpoint? {
        try await storage { try await database.readStatement { try Self.endpoint(id, on: $0) } }
    }

    package func setEnabled(_ enabled: Bool, endpoint id: Int64, reason: String?,
                            audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint {
        try await change(id, audit: audit) { connection in
            try connection.run("UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ? WHERE id = ?",
                               [.bool(enabled), reason.map(SQLValue.text) ?? .null, .integer(id)])
        }
    }

    package func rotateSecret(endpoint id: Int64, to secret: WebhookSecret, previousUntil: Date,
                              audit: AuditEntry) async throws(KeyCatError) -> WebhookEndpoint {
        try await change(id, audit: audit) { connection in
            try connection.run(
                """
                UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?, secret = ?
                WHERE id = ?
                """, [StoredTime.value(previousUntil), .text(secret.rawValue), .integer(id)])
        }
    }

    package func remove(endpoint id: Int64, audit: AuditEntry) async throws(KeyCatError) {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                // The deliveries go with it (ON DELETE CASCADE).
                guard try connection.run("DELETE FROM webhook_endpoints WHERE id = ?", [.integer(id)]) == 1 else {
                    throw KeyCatError.notFound("webhook endpoint", id)
                }
                try AuditLogTable.insert(audit, on: connection)
            }
        }
    }

    package func deliveries(_ filter: WebhookDeliveryFilter) async throws(KeyCatError) -> [WebhookDelivery] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let endpoint = filter.endpointID {
            conditions.append("endpoint_id = ?")
            arguments.append(.integer(endpoint))
        }
        if filter.failedOnly {
            conditions.append("(status = 'failed' OR (status = 'pending' AND last_attempt_at IS NOT NULL))")
        }
        let clause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await storage {
            try await database.readStatement { connection in
                try connection.query(
                    "SELECT \(WebhookDeliveryRow.columns) FROM webhook_deliveries \(clause) ORDER BY id DESC LIMIT ?",
                    arguments + [.int(filter.limit)], WebhookDeliveryRow.decode)
            }
        }
    }

    package func replay(_ selection: WebhookReplaySelection, endpoint: Int64?, at date: Date,
                        audit: AuditEntry) async throws(KeyCatError) -> Int {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                var endpoints = try connection.query(
                    "SELECT \(Self.columns) FROM webhook_endpoints WHERE enabled = 1 OR id = ? ORDER BY id",
                    [endpoint.map(SQLValue.integer) ?? .null], Self.decode)
                if let endpoint {
                    endpoints = endpoints.filter { $0.id == endpoint }
                    guard !endpoints.isEmpty else { throw KeyCatError.notFound("webhook endpoint", endpoint) }
                }
                let events: [WebhookFanOut.EventRow]
                switch selection {
                case let .event(id):
                    events = try connection.query(
                        "SELECT \(WebhookFanOut.EventRow.columns) FROM events WHERE id = ?", [.text(id)], WebhookFanOut.EventRow.decode)
                    guard !events.isEmpty else { throw KeyCatError.notFound("event", id) }
                case let .since(since):
                    events = try connection.query(
                        "SELECT \(WebhookFanOut.EventRow.columns) FROM events WHERE occurred_at >= ? ORDER BY occurred_at, position LIMIT ?",
                        [StoredTime.value(since), .int(WebhookEndpointService.maximumReplayEvents + 1)], WebhookFanOut.EventRow.decode)
                    guard events.count <= WebhookEndpointService.maximumReplayEvents else {
                        throw KeyCatError.validation(
                            "since", "more than \(WebhookEndpointService.maximumReplayEvents) events occurred since then: "
                                + "choose a later --since, or replay one --event at a time")
                    }
                }
                var created = 0
                for event in events {
                    for endpoint in endpoints where endpoint.receives(event.type) {
                        try WebhookFanOut.insertDelivery(of: event, to: endpoint.id, at: date, on: connection)
                        created += 1
                    }
                }
                var entry = audit
                entry.detail += " deliveries=\(created)"
                try AuditLogTable.insert(entry, on: connection)
                return created
            }
        }
    }

    /// Runs `update` on the endpoint `id` with its audit entry, and reads it back.
    private func change(_ id: Int64, audit: AuditEntry,
                        _ update: @escaping (Database.Connection) throws -> Int) async throws(KeyCatError) -> WebhookEndpoint {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                guard try update(connection) == 1, let endpoint = try Self.endpoint(id, on: connection) else {
                    throw KeyCatError.notFound("webhook endpoint", id)
                }
                try AuditLogTable.insert(audit, on: connection)
                return endpoint
            }
        }
    }

    static func endpoint(_ id: Int64, on connection: Database.Connection) throws -> WebhookEndpoint? {
        try connection.queryOne("SELECT \(columns) FROM webhook_endpoints WHERE id = ?", [.integer(id)], decode)
    }

    static var columns: String {
        "id, url, events, description, enabled, disabled_reason, created_at, last_success_at, previous_secret_expires_at"
    }

    static func decode(_ row: Database.Connection.Row) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: row.int64(0), url: WebhookURL(stored: row.string(1)),
            // Checked when stored; a pattern no longer known (a type renamed) selects nothing.
            events: row.string(2).split(separator: ",").compactMap { try? EventPattern(String($0)) },
            description: row.string(3), isEnabled: row.bool(4), disabledReason: row.optionalString(5),
            createdAt: StoredTime.date(row.int64(6)), lastSuccessAt: StoredTime.date(row.optionalInt64(7)),
            previousSecretExpiresAt: StoredTime.date(row.optionalInt64(8)))
    }
}

/// A `webhook_deliveries` row as the log shows it.
enum WebhookDeliveryRow {
    static let columns = """
        id, endpoint_id, event_id, event_type, aggregate_kind, aggregate_id, status, attempts, next_attempt_at, created_at,
        delivered_at, last_attempt_at, last_status, last_error, last_duration_ms, last_response
        """

    static func decode(_ row: some SQLRow) throws -> WebhookDelivery {
        let attempt = row.optionalInt64(11).map { startedAt in
            WebhookAttempt(
                startedAt: StoredTime.date(startedAt), durationMilliseconds: row.optionalInt64(14) ?? 0,
                statusCode: row.optionalInt64(12).map { Int($0) }, error: row.optionalString(13),
                responseBody: row.optionalString(15) ?? "")
        }
        return WebhookDelivery(
            id: row.int64(0), endpointID: row.int64(1), eventID: row.string(2), eventType: EventType(rawValue: row.string(3)),
            aggregate: EventAggregate(EventAggregate.Kind(rawValue: row.string(4)) ?? .order, row.int64(5)),
            status: WebhookDelivery.Status(rawValue: row.string(6)) ?? .pending, attempts: row.int(7),
            nextAttemptAt: StoredTime.date(row.optionalInt64(8)), createdAt: StoredTime.date(row.int64(9)),
            deliveredAt: StoredTime.date(row.optionalInt64(10)), lastAttempt: attempt)
    }
}
