import Foundation
import KeyCatInfrastructure

/// One webhook waiting to be delivered. Its id stays the same across duplicates and retries,
/// which is what lets a receiver deduplicate.
struct PendingWebhook: Sendable {
    var id: String
    var body: Data
}

/// The receiver, the style and the undelivered webhooks.
struct WebhookQueue: Sendable {
    var receiver: (transport: any HTTPTransport, path: String)?
    var style: PGWebhookStyle
    var pending: [PendingWebhook] = []
}

/// How the simulator sends webhooks.
public enum PGWebhookStyle: Sendable, Hashable {
    /// Signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
    /// with ``PGSimulator/webhookSecret``, on every change of a payment, API cancels included:
    /// for gateways that sign, and what KeyCat verifies by default.
    case signed
    /// As PortOne v1 sends them: an unsigned `{imp_uid, merchant_uid, status}` JSON notification
    /// when a payment is paid in the window and when the buyer cancels the window (not when a
    /// card is declined); API cancels only when `notifyingAPICancels` (v1's "notify on API
    /// cancel" option). Each is sent once: one the receiver does not acknowledge is dropped, as v1
    /// does unless asked to retry. The receiver must treat it as a hint and re-read the payment.
    case portOneV1(notifyingAPICancels: Bool)
}

/// What changed a payment, which decides whether a v1-style webhook is sent for it.
enum WebhookCause {
    /// Paid in the window.
    case paid
    /// A card declined (or an amount that did not match) in the window.
    case declined
    /// The buyer closed the window.
    case windowCancelled
    /// `POST /payments/cancel`.
    case apiCancel
}

extension PGSimulator {
    /// Sends webhooks to `transport` at `path` (e.g. a server's `/webhooks/pg`) from now on.
    public func registerWebhookReceiver(_ transport: any HTTPTransport, path: String) {
        webhooks.withLock { $0.receiver = (transport, path) }
    }

    /// Stops sending webhooks. Signed ones queue until a receiver is registered again; v1's are
    /// not sent at all meanwhile (v1 without a notification URL).
    public func unregisterWebhookReceiver() {
        webhooks.withLock { $0.receiver = nil }
    }

    /// Switches how webhooks are sent from now on (those already queued included).
    public func configureWebhooks(_ style: PGWebhookStyle) {
        webhooks.withLock { $0.style = style }
    }

    /// How webhooks are sent.
    public var webhookStyle: PGWebhookStyle { webhooks.withLock { $0.style } }

    /// How many webhooks wait for delivery.
    public var pendingWebhookCount: Int { webhooks.withLock { $0.pending.count } }

    /// Delivers every queued webhook to the registered receiver, in the configured
    /// ``PGWebhookStyle``.
    ///
    /// With the fault configuration's `webhookDuplicateRate` some are sent twice, and with
    /// `webhookReordering` the batch goes out shuffled (both reproducible from the seed). A
    /// signed webhook the receiver does not acknowledge with a 2xx stays queued for the next call:
    /// delivery is at least once (a v1 notification is sent once, as v1 does). Webhooks are queued in this process's memory, not in the file.
    ///
    /// - Returns: the number of deliveries acknowledged (duplicates included).
    @discardableResult
    public func deliverPendingWebhooks(timeout: Duration = .seconds(5)) async -> Int {
        let (receiver, batch, style) = webhooks.withLock { queue in
            let batch = queue.pending
            if queue.receiver != nil { queue.pending = [] }
            return (queue.receiver, batch, queue.style)
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
            let request = style == .signed
                ? signedRequest(webhook, path: receiver.path)
                : TransportRequest(method: .post, path: receiver.path, headers: ["Content-Type": "application/json"], body: webhook.body)
            let response = try? await receiver.transport.send(request, timeout: timeout)
            if response?.isSuccess == true { acknowledged += 1 } else { failed[webhook.id] = webhook }
        }
        if !failed.isEmpty, style == .signed {
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

    /// Queues `{imp_uid, merchant_uid, status}` for `payment`, unless the style leaves out changes
    /// of this cause.
    func enqueueWebhook(for payment: PGPaymentRecord, cause: WebhookCause) {
        let object: [String: Any] = [
            "imp_uid": payment.impUID, "merchant_uid": payment.merchantUID, "status": payment.status.rawValue,
        ]
        let body = (try? JSONObjectEncoding.data(object)) ?? Data()
        let id = "msg_" + Base64URL.encode((try? SecureRandom.bytes(count: 16)) ?? [])
        webhooks.withLock { queue in
            if case let .portOneV1(notifyingAPICancels) = queue.style {
                // v1 sends nothing without a notification URL, nothing for a declined card, and
                // API cancels only when asked.
                if queue.receiver == nil || cause == .declined || (cause == .apiCancel && !notifyingAPICancels) { return }
            }
            queue.pending.append(PendingWebhook(id: id, body: body))
        }
    }
}
