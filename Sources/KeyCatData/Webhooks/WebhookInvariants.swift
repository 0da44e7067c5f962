import KeyCatInfrastructure

/// What `db check` proves of the webhook tables (docs/webhooks.md): every delivery refers to an
/// event and an endpoint that exist (foreign keys say so too, but a SQLite file written with
/// them off would not), a pending delivery has a time for its next attempt, a delivered one the
/// time it was delivered, and the fan-out's position is one row.
enum WebhookInvariants {
    static func problems(on connection: some SQLConnection) throws -> [String] {
        guard try connection.hasTable("webhook_deliveries") else { return [] }
        var problems = try connection.query("""
            SELECT d.id, d.event_id FROM webhook_deliveries d
            WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id) ORDER BY d.id LIMIT 100
            """, []) { "webhook delivery \($0.int64(0)) refers to event \($0.string(1)), which does not exist" }
        problems += try connection.query("""
            SELECT d.id, d.endpoint_id FROM webhook_deliveries d
            WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id) ORDER BY d.id LIMIT 100
            """, []) { "webhook delivery \($0.int64(0)) refers to endpoint \($0.int64(1)), which does not exist" }
        problems += try connection.query("""
            SELECT id, status FROM webhook_deliveries
            WHERE (status = 'pending' AND next_attempt_at IS NULL) OR (status = 'delivered' AND delivered_at IS NULL)
            ORDER BY id LIMIT 100
            """, []) { "webhook delivery \($0.int64(0)) is \($0.string(1)) without the time that goes with it" }
        let positions = try connection.queryOne("SELECT count(*) FROM webhook_dispatch", []) { $0.int(0) } ?? 0
        if positions != 1 { problems.append("webhook_dispatch holds \(positions) rows, not the one position of the fan-out") }
        return problems
    }
}
