import Foundation
import KeyCatInfrastructure

/// One webhook waiting to be delivered. Its id stays the same across duplicates and retries,
/// which is what lets a receiver deduplicate.
struct PendingWebhook: Sendable {
    var id: String
    var body: Data
}

/// The receiver and the undelivered webhooks.
struct WebhookQueue: Sendable {
    var receiver: (transport: any HTTPTransport, path: String)?
    var pending: [PendingWebhook] = []
}

extension PGSimulator {
    /// Sends webhooks to `transport` at `path` (e.g. a server's `/webhooks/pg`) from now on.
    public func registerWebhookReceiver(_ transport: any HTTPTransport, path: String) {
        webhooks.withLock { $0.receiver = (transport, path) }
    }

    /// How many webhooks wait for delivery.
    public var pendingWebhookCount: Int { webhooks.withLock { $0.pending.count } }

    /// Delivers every queued webhook to the registered receiver, signed Standard-Webhooks style.
    ///
    /// With the fault configuration's `webhookDuplicateRate` some are sent twice, and with
    /// `webhookReordering` the batch goes out shuffled (both reproducible from the seed). A
    /// webhook the receiver does not acknowledge with a 2xx stays queued for the next call:
    /// delivery is at least once. Webhooks are queued in this process's memory, not in the file.
    ///
    /// - Returns: the number of deliveries acknowledged (duplicates included).
    @discardableResult
    public func deliverPendingWebhooks(timeout: Duration = .seconds(5)) async -> Int {
        let (receiver, batch) = webhooks.withLock { queue in
            let batch = queue.pending
            if queue.receiver != nil { queue.pending = [] }
            return (queue.receiver, batch)
        }
        guard let receiver else { return 0 }
        let deliveries = faults.withLock { plan -> [PendingWebhook] in
            var deliveries: [PendingWebhook] = []
            for webhook in batch {
                deliveries.append(webhook)
                if plan.generator.chance(plan.configuration.webhookDuplicateRate) { deliveries.append(webhook) }
            }
            if plan.configuration.webhookReordering { deliveries.shuffle(using: &plan.generator) }
            return deliveries
        }
        var acknowledged = 0
        var failed: [String: PendingWebhook] = [:]
        for webhook in deliveries {
            let request = signedRequest(webhook, path: receiver.path)
            let response = try? await receiver.transport.send(request, timeout: timeout)
            if response?.isSuccess == true { acknowledged += 1 } else { failed[webhook.id] = webhook }
        }
        if !failed.isEmpty {
            let retry = batch.filter { failed[$0.id] != nil }
            webhooks.withLock { $0.pending.insert(contentsOf: retry, at: 0) }
        }
        return acknowledged
    }

    /// The request that delivers `webhook`, signed with ``webhookSecret`` at the current time.
    func signedRequest(_ webhook: PendingWebhook, path: String) -> TransportRequest {
        let timestamp = Int64(now().timeIntervalSince1970)
        return TransportRequest(method: .post, path: path, headers: [
            "Content-Type": "application/json",
            "webhook-id": webhook.id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": StandardWebhookSignature.sign(
                id: webhook.id, timestamp: timestamp, body: webhook.body, secret: webhookSecret),
        ], body: webhook.body)
    }

    /// Queues `{imp_uid, merchant_uid, status}` for `payment`.
    func enqueueWebhook(for payment: PGPaymentRecord) {
        let object: [String: Any] = [
            "imp_uid": payment.impUID, "merchant_uid": payment.merchantUID, "status": payment.status.rawValue,
        ]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        let id = "msg_" + Base64URL.encode((try? SecureRandom.bytes(count: 16)) ?? [])
        webhooks.withLock { $0.pending.append(PendingWebhook(id: id, body: body)) }
    }
}
