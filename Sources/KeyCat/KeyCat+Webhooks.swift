import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// The operators' webhook endpoints: add, list, enable, disable, rotate secrets, remove,
    /// read the delivery log, replay (docs/webhooks.md). Not to be confused with ``webhooks``,
    /// which receives the PG's webhooks.
    public var webhookEndpoints: WebhookEndpointService {
        WebhookEndpointService(
            repository: store.webhookEndpoints, clock: configuration.clock, developmentHosts: configuration.webhookDevelopmentHosts,
            makeSecret: { () throws(KeyCatError) -> WebhookSecret in
                do {
                    return WebhookSecret(bytes: try SecureRandom.bytes(count: WebhookSecret.generatedByteCount))
                } catch {
                    throw KeyCatError(.internalError, "no random bytes for a webhook secret: \(error)")
                }
            })
    }

    /// Delivers events to the webhook endpoints until the calling task is cancelled: the loop a
    /// server starts once, beside its HTTP listener (and beside ``reconcile(every:gateway:onRun:)``).
    ///
    /// ```swift
    /// let delivery = Task { await keycat.deliverWebhooks { error in logger.warning("webhooks: \(error)") } }
    /// // at shutdown:
    /// delivery.cancel()
    /// ```
    ///
    /// It wakes when an event commits (in this process, another on the same SQLite file, or
    /// another server on the same Postgres database) rather than polling, and on a timer when a
    /// retry comes due. Several servers may each run it: a delivery's attempt is leased to one
    /// of them (docs/webhooks.md "Leases"). Storage errors are reported to `onError` and the
    /// loop goes on.
    ///
    /// - Throws: `validation` when `options` is out of range (before anything runs).
    public func deliverWebhooks(
        _ options: WebhookDeliveryOptions = WebhookDeliveryOptions(),
        onError: @escaping @Sendable (KeyCatError) -> Void = { _ in }
    ) async throws(KeyCatError) {
        let options = try options.validated()
        await runWebhooks(on: store, options, onError: onError)
    }

    /// One pass of the delivery loop: fan out every event, send what is due, record it. For
    /// tests and one-shot tools.
    ///
    /// - Returns: each attempt made, by delivery.
    package func deliverDueWebhooks(_ options: WebhookDeliveryOptions = WebhookDeliveryOptions()) async throws(KeyCatError) -> [WebhookJobOutcome] {
        let options = try options.validated()
        return try await deliverDueWebhooks(on: store, options)
    }

    private func runWebhooks<Store: OpenedStore>(on store: Store, _ options: WebhookDeliveryOptions,
                                                 onError: @escaping @Sendable (KeyCatError) -> Void) async {
        await webhookWorker(on: store, options).run(onError: onError)
    }

    private func deliverDueWebhooks<Store: OpenedStore>(on store: Store, _ options: WebhookDeliveryOptions)
        async throws(KeyCatError) -> [WebhookJobOutcome] {
        try await webhookWorker(on: store, options).deliverDue()
    }

    /// A worker on `store`'s database.
    private func webhookWorker<Store: OpenedStore>(on store: Store, _ options: WebhookDeliveryOptions) -> WebhookDeliveryWorker<Store.Database> {
        store.webhookWorker(
            events: store.events,
            sender: options.sender ?? HTTPWebhookSender(developmentHosts: configuration.webhookDevelopmentHosts),
            clock: configuration.clock, options: options)
    }
}
