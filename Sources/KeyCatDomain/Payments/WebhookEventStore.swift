import Foundation

/// Remembers PG webhook ids durably, so a duplicate delivery is recognised by every process and
/// after a restart (architecture §6: deduplicated by webhook id). Implementations:
/// `SQLWebhookEventStore` on SQLite and Postgres, `InMemoryWebhookEventStore` for tests.
///
/// An id is recorded once its delivery was handled, never before: a delivery whose handling
/// failed (the PG did not answer, the disk was full) leaves nothing behind that could make the
/// PG's redelivery look like a duplicate.
public protocol WebhookEventStore: Sendable {
    /// Whether a delivery of `id` was handled already.
    func isRecorded(_ id: String) async throws(KeyCatError) -> Bool
    /// Records `id` as handled; true when it was not recorded yet. Atomic across processes.
    func recordFirstDelivery(of id: String, at now: Date) async throws(KeyCatError) -> Bool
    /// Forgets the oldest ids recorded before `cutoff`, at most `limit`, in one short write;
    /// returns how many. Reconciliation calls it (``CheckoutService/webhookIDRetention``).
    func sweep(recordedBefore cutoff: Date, limit: Int) async throws(KeyCatError) -> Int
}
