/// The webhook tables (docs/webhooks.md): endpoints, the fan-out's place in the event log, and
/// one delivery row per event and endpoint.
///
/// - `webhook_endpoints`: the receivers, with their secret and, for 24 h after a rotation, the
///   previous one.
/// - `webhook_dispatch`: one row, the position in the event log up to which events have been
///   fanned out into deliveries. Advanced in the transaction that creates the deliveries, under
///   a row lock on Postgres, so each event fans out once whatever the number of servers.
/// - `webhook_deliveries`: what to send where, its attempts, its lease (`lease_owner`,
///   `lease_expires_at`) and its last answer. It refers to its event and endpoint and goes with
///   either (`ON DELETE CASCADE`): pruning the event log prunes its deliveries.
import KeyCatInfrastructure

enum WebhookSchema {
    static func ddl(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE webhook_endpoints (
            id                         \(type.rowID),
            url                        \(type.text) NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
            events                     \(type.text) NOT NULL,
            description                \(type.text) NOT NULL DEFAULT '',
            secret                     \(type.text) NOT NULL,
            previous_secret            \(type.text),
            previous_secret_expires_at \(type.integer),
            enabled                    \(type.integer) NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
            disabled_reason            \(type.text),
            created_at                 \(type.integer) NOT NULL,
            last_success_at            \(type.integer)
        )\(type.tableOptions);

        CREATE TABLE webhook_dispatch (
            id                \(type.integer) PRIMARY KEY CHECK (id = 1),
            event_transaction \(type.integer) NOT NULL,
            event_position    \(type.integer) NOT NULL
        )\(type.tableOptions);
        INSERT INTO webhook_dispatch (id, event_transaction, event_position) VALUES (1, 0, 0);

        CREATE TABLE webhook_deliveries (
            id               \(type.rowID),
            endpoint_id      \(type.integer) NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
            event_id         \(type.text) NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            event_type       \(type.text) NOT NULL,
            aggregate_kind   \(type.text) NOT NULL,
            aggregate_id     \(type.integer) NOT NULL,
            status           \(type.text) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
            attempts         \(type.integer) NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            next_attempt_at  \(type.integer),
            lease_owner      \(type.text),
            lease_expires_at \(type.integer),
            created_at       \(type.integer) NOT NULL,
            delivered_at     \(type.integer),
            last_attempt_at  \(type.integer),
            last_status      \(type.integer),
            last_error       \(type.text),
            last_duration_ms \(type.integer),
            last_response    \(type.text)
        )\(type.tableOptions);
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
        CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, aggregate_kind, aggregate_id, id)
            WHERE status = 'pending';
        CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);
        CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
        CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_expires_at)
            WHERE lease_owner IS NOT NULL;
        """
    }
}
