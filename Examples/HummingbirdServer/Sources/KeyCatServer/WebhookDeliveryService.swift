import KeyCat
import Logging
import ServiceLifecycle

/// Webhook delivery beside the HTTP listener (`keycat.deliverWebhooks`): events go to the
/// endpoints operators registered with `keycat-admin webhooks add`, signed, retried for about
/// three days, leased so that several servers never send one attempt twice (docs/webhooks.md).
/// On by default; `KEYCAT_WEBHOOK_DELIVERY=0` turns it off in this process. Stops at graceful
/// shutdown: requests in flight end, and a delivery cut short is sent again later.
struct WebhookDeliveryService: Service {
    let keycat: KeyCat
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            do {
                try await keycat.deliverWebhooks { error in
                    logger.warning("webhook delivery: storage failed; the loop goes on", metadata: ["error": "\(error)"])
                }
            } catch {
                logger.error("webhook delivery did not start", metadata: ["error": "\(error)"])
            }
        }
    }
}
