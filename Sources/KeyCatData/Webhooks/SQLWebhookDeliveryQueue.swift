import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The deliveries as work (docs/webhooks.md "Leases"): fan-out, claiming due deliveries under a
/// lease, and recording what each attempt came to.
///
/// A worker claims in one short transaction: on Postgres it locks the enabled endpoints it will
/// claim for (`FOR UPDATE SKIP LOCKED`, so two servers never claim for the same endpoint at
/// once and never wait on each other), counts the deliveries each already has in flight
/// (unexpired leases), and leases due deliveries up to the per-endpoint cap, oldest first,
/// skipping any delivery with an earlier pending delivery of the same endpoint and aggregate
/// (the ordering rule). SQLite's one writer does the same alone. The attempt is counted when it
/// is claimed. Sending happens outside any transaction; the outcome is recorded in another,
/// only while the lease is still the worker's (a 2xx is recorded whoever holds the lease). A
/// worker that dies leaves its lease to expire, and the delivery is claimed again: at least
/// once.
package struct SQLWebhookDeliveryQueue<Database: SQLDatabase>: Sendable {
    private let database: Database

    package init(database: Database) { self.database = database }

    private var isPostgres: Bool { Database.Connection.dialect.store == .postgres }

    /// Fans out up to `limit` events (``WebhookFanOut``).
    ///
    /// - Returns: how many events were read and deliveries created.
    package func fanOut(limit: Int, at now: Date) async throws(KeyCatError) -> (events: Int, deliveries: Int) {
        let pass = try await fanOutPass(limit: limit, at: now)
        return (pass.events, pass.deliveries)
    }

    /// ``fanOut(limit:at:)`` with whether committed events are held back from reading.
    func fanOutPass(limit: Int, at now: Date) async throws(KeyCatError) -> WebhookFanOut.Pass {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                try WebhookFanOut.run(limit: limit, at: now, on: connection)
            }
        }
    }

    /// Leases up to `limit` due deliveries to `owner` until `now + lease`, at most `perEndpoint`
    /// in flight per endpoint.
    package func claim(owner: String, at now: Date, lease: TimeInterval, limit: Int,
                       perEndpoint: Int) async throws(KeyCatError) -> [WebhookJob] {
        try await recordAndClaim([], owner: owner, at: now, schedule: .standard, lease: lease, limit: limit,
                                 perEndpoint: perEndpoint).jobs
    }

    /// Records `outcomes` of attempts leased to `owner`, in one transaction: a 2xx delivers; a
    /// failure schedules the next attempt by `schedule`, or fails the delivery after the last
    /// (disabling its endpoint when it has answered no 2xx since the delivery was created); an
    /// interrupted attempt hands the delivery back uncounted.
    ///
    /// - Returns: the endpoints this disabled.
    @discardableResult
    package func record(_ outcomes: [WebhookJobOutcome], owner: String, at now: Date,
                        schedule: WebhookRetrySchedule) async throws(KeyCatError) -> [Int64] {
        guard !outcomes.isEmpty else { return [] }
        return try await recordAndClaim(outcomes, owner: owner, at: now, schedule: schedule, lease: 0, limit: 0,
                                        perEndpoint: 0).disabled
    }

    /// ``record(_:owner:at:schedule:)`` then ``claim(owner:at:lease:limit:perEndpoint:)`` in one
    /// transaction: the delivery loop's one write per round, which frees the slots and the
    /// aggregates of what it records before it claims.
    package func recordAndClaim(_ outcomes: [WebhookJobOutcome], owner: String, at now: Date, schedule: WebhookRetrySchedule,
                                lease: TimeInterval, limit: Int,
                                perEndpoint: Int) async throws(KeyCatError) -> (disabled: [Int64], jobs: [WebhookJob]) {
        guard !outcomes.isEmpty || limit > 0 else { return ([], []) }
        return try await storage {
            try await database.write(isolation: .readCommitted) { connection -> (disabled: [Int64], jobs: [WebhookJob]) in
                let disabled = try Self.record(outcomes, owner: owner, at: now, schedule: schedule, on: connection)
                let jobs = limit > 0
                    ? try Self.claim(owner: owner, at: now, lease: lease, limit: limit, perEndpoint: perEndpoint, on: connection) : []
                return (disabled, jobs)
            }
        }
    }

    private static func claim(owner: String, at now: Date, lease: TimeInterval, limit: Int, perEndpoint: Int,
                              on connection: Database.Connection) throws -> [WebhookJob] {
        let postgres = Database.Connection.dialect.store == .postgres
        let integers = Database.Connection.dialect.integersFromJSON
        let nowValue = StoredTime.value(now)
        let endpoints = try connection.query(
            "SELECT id FROM webhook_endpoints WHERE enabled = 1 ORDER BY id" + (postgres ? " FOR UPDATE SKIP LOCKED" : ""), []
        ) { $0.int64(0) }
        guard !endpoints.isEmpty else { return [] }
        let list = SQLValue.text("[" + endpoints.map(String.init).joined(separator: ",") + "]")
        var inFlight: [Int64: Int] = [:]
        try connection.forEach(
            """
            SELECT endpoint_id, count(*) FROM webhook_deliveries
            WHERE lease_owner IS NOT NULL AND lease_expires_at > ? AND status = 'pending'
              AND endpoint_id IN (\(integers)) GROUP BY endpoint_id
            """, [nowValue, list]
        ) { inFlight[$0.int64(0)] = $0.int(1) }
        // Each endpoint is asked for its own free slots, so one endpoint's backlog never hides
        // another's due deliveries; the statements travel together (one round trip on Postgres).
        // Every endpoint with a free slot is asked, and what they have due is taken a round at a
        // time, each endpoint's first before any second, up to `limit`, starting with a
        // different endpoint from one millisecond to the next. Until 2026-12-01 each endpoint's
        // free slots were taken off `limit` before it was known whether it had anything due, so
        // with 64 in flight and 4 an endpoint, the 17th endpoint and after were never asked.
        var due: [[Int64]] = []
        var statements: [SQLStatement<Database.Connection.Row>] = []
        for endpoint in endpoints {
            let free = Swift.min(perEndpoint - inFlight[endpoint, default: 0], limit)
            guard free > 0 else { continue }
            let index = due.count
            due.append([])
            statements.append(.query(
                """
                SELECT d.id FROM webhook_deliveries d
                WHERE d.endpoint_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
                  AND (d.lease_owner IS NULL OR d.lease_expires_at <= ?)
                  AND NOT EXISTS (
                      SELECT 1 FROM webhook_deliveries p
                      WHERE p.endpoint_id = d.endpoint_id AND p.aggregate_kind = d.aggregate_kind
                        AND p.aggregate_id = d.aggregate_id AND p.status = 'pending' AND p.id < d.id)
                ORDER BY d.next_attempt_at, d.id LIMIT ?
                """, [.integer(endpoint), nowValue, nowValue, .int(free)]
            ) { due[index].append($0.int64(0)) })
        }
        guard !statements.isEmpty else { return [] }
        try connection.batch(statements)
        let rotation = Int(StoredTime.milliseconds(now) % Int64(due.count))
        let chosen = Self.takeInTurn(due, limit: limit, startingAt: rotation < 0 ? rotation + due.count : rotation)
        guard !chosen.isEmpty else { return [] }
        let ids = SQLValue.text("[" + chosen.map(String.init).joined(separator: ",") + "]")
        try connection.run(
            "UPDATE webhook_deliveries SET attempts = attempts + 1, lease_owner = ?, lease_expires_at = ? WHERE id IN (\(integers))",
            [.text(owner), StoredTime.value(now.addingTimeInterval(lease)), ids])
        return try connection.query(
            """
            SELECT d.id, d.attempts, d.endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at,
                   d.created_at, e.id, e.type, e.aggregate_kind, e.aggregate_id, e.occurred_at, e.schema_version, e.data
            FROM webhook_deliveries d
            JOIN webhook_endpoints w ON w.id = d.endpoint_id
            JOIN events e ON e.id = d.event_id
            WHERE d.id IN (\(integers)) ORDER BY d.id
            """, [ids]
        ) { row in try Self.job(row, now: now) }
    }

    /// Up to `limit` of `lists`' items, a round at a time (each list's first, then each one's
    /// second, …), each round going through the lists from `start` on.
    package static func takeInTurn(_ lists: [[Int64]], limit: Int, startingAt start: Int) -> [Int64] {
        var taken: [Int64] = []
        var round = 0
        while taken.count < limit {
            var tookAny = false
            for offset in lists.indices where taken.count < limit {
                let list = lists[(start + offset) % lists.count]
                guard round < list.count else { continue }
                taken.append(list[round])
                tookAny = true
            }
            guard tookAny else { break }
            round += 1
        }
        return taken
    }

    /// What an endpoint answered, as Postgres can keep it: a NUL (a UTF-16 body, a binary page,
    /// a hostile receiver) is shown as U+FFFD. Postgres refuses text holding one, and the refusal
    /// would roll back the whole round's outcomes, every endpoint's, round after round.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    private static func record(_ outcomes: [WebhookJobOutcome], owner: String, at now: Date, schedule: WebhookRetrySchedule,
                               on connection: Database.Connection) throws -> [Int64] {
        var disabled: [Int64] = []
        // In endpoint order, so two servers recording at once lock endpoint rows in the same order
        // and never deadlock.
        let ordered = outcomes.sorted { ($0.job.endpointID, $0.job.deliveryID) < ($1.job.endpointID, $1.job.deliveryID) }
        for (job, attempt) in ordered {
            let id = SQLValue.integer(job.deliveryID)
            guard let attempt else {
                try connection.run(
                    """
                    UPDATE webhook_deliveries SET attempts = attempts - 1, lease_owner = NULL, lease_expires_at = NULL
                    WHERE id = ? AND lease_owner = ? AND status = 'pending'
                    """, [id, .text(owner)])
                continue
            }
            let last: [SQLValue] = [
                StoredTime.value(attempt.startedAt), attempt.statusCode.map { SQLValue.int($0) } ?? .null,
                attempt.error.map { .text(Self.storable($0)) } ?? .null, .integer(attempt.durationMilliseconds),
                .text(Self.storable(attempt.responseBody)),
            ]
            let setLast = "last_attempt_at = ?, last_status = ?, last_error = ?, last_duration_ms = ?, last_response = ?"
            if attempt.succeeded {
                let updated = try connection.run(
                    """
                    UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ?, next_attempt_at = NULL,
                        lease_owner = NULL, lease_expires_at = NULL, \(setLast)
                    WHERE id = ? AND status = 'pending'
                    """, [StoredTime.value(now)] + last + [id])
                if updated == 1 {
                    try connection.run(
                        "UPDATE webhook_endpoints SET last_success_at = ? WHERE id = ? AND (last_success_at IS NULL OR last_success_at < ?)",
                        [StoredTime.value(now), .integer(job.endpointID), StoredTime.value(now)])
                }
            } else if let delay = schedule.delay(afterAttempt: job.attempt) {
                try connection.run(
                    """
                    UPDATE webhook_deliveries SET next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL, \(setLast)
                    WHERE id = ? AND lease_owner = ? AND status = 'pending'
                    """, [StoredTime.value(now.addingTimeInterval(delay))] + last + [id, .text(owner)])
            } else {
                let updated = try connection.run(
                    """
                    UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_owner = NULL,
                        lease_expires_at = NULL, \(setLast)
                    WHERE id = ? AND lease_owner = ? AND status = 'pending'
                    """, last + [id, .text(owner)])
                guard updated == 1 else { continue }
                let reason = "every delivery failed for \(Self.days(schedule.span)) (delivery \(job.deliveryID) gave up)"
                let off = try connection.run(
                    """
                    UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?
                    WHERE id = ? AND enabled = 1 AND (last_success_at IS NULL OR last_success_at < ?)
                    """, [.text(reason), .integer(job.endpointID), StoredTime.value(job.createdAt)])
                if off == 1 {
                    disabled.append(job.endpointID)
                    try AuditLogTable.insert(AuditEntry(
                        actor: "system", action: "webhook.endpoint.auto_disable", target: "webhook_endpoint:\(job.endpointID)",
                        detail: reason, at: now), on: connection)
                }
            }
        }
        return disabled
    }

    /// When the next delivery that could be claimed comes due (its attempt time, or the expiry
    /// of the lease on it), nil when none is pending on an enabled endpoint. Deliveries waiting
    /// behind an earlier one of their aggregate do not count: the earlier one's time does.
    package func nextDue() async throws(KeyCatError) -> Date? {
        try await storage {
            try await database.readStatement { connection in
                try connection.queryOne(
                    """
                    SELECT min(CASE WHEN d.lease_owner IS NULL THEN d.next_attempt_at ELSE d.lease_expires_at END)
                    FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                    WHERE d.status = 'pending' AND w.enabled = 1
                      AND NOT EXISTS (
                          SELECT 1 FROM webhook_deliveries p
                          WHERE p.endpoint_id = d.endpoint_id AND p.aggregate_kind = d.aggregate_kind
                            AND p.aggregate_id = d.aggregate_id AND p.status = 'pending' AND p.id < d.id)
                    """, []
                ) { $0.optionalInt64(0) }.flatMap { $0 }.map(StoredTime.date)
            }
        }
    }

    private static func job(_ row: Database.Connection.Row, now: Date) throws -> WebhookJob {
        var secrets = [WebhookSecret(stored: row.string(4))]
        if let previous = row.optionalString(5), let until = row.optionalInt64(6), StoredTime.date(until) > now {
            secrets.append(WebhookSecret(stored: previous))
        }
        guard let kind = EventAggregate.Kind(rawValue: row.string(10)) else {
            throw KeyCatError(.internalError, "event \(row.string(8)) concerns an unknown kind «\(row.string(10))»")
        }
        let event = DomainEvent(
            id: row.string(8), type: EventType(rawValue: row.string(9)), occurredAt: StoredTime.date(row.int64(12)),
            aggregate: EventAggregate(kind, row.int64(11)), schemaVersion: row.int(13),
            data: try EventData.decoding(row.string(14)), position: nil)
        return WebhookJob(
            deliveryID: row.int64(0), attempt: row.int(1), endpointID: row.int64(2), url: WebhookURL(stored: row.string(3)),
            secrets: secrets, event: event, createdAt: StoredTime.date(row.int64(7)))
    }

    private static func days(_ interval: TimeInterval) -> String {
        let hours = Int(interval / 3_600)
        return hours >= 48 ? "\(hours / 24) days \(hours % 24) hours" : "\(hours) hours"
    }
}
