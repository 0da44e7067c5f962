import Foundation

/// Remembers PG webhook ids durably, so a duplicate delivery is recognised by every process and
/// after a restart (architecture §2 `WebhookEvent`). Implementation: `SQLiteWebhookEventStore`.
public protocol WebhookEventStore: Sendable {
    /// Records `id`; true on its first delivery. Atomic across processes.
    func recordFirstDelivery(of id: String, at now: Date) throws(KeyCatError) -> Bool
    /// Forgets `id` after its handling failed, so the PG's redelivery is handled again.
    func forget(_ id: String) throws(KeyCatError)
}
