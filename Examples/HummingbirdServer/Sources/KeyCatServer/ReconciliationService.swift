import KeyCat
import Logging
import ServiceLifecycle

/// Reconciliation beside the HTTP listener (`keycat.reconcile(every:)`): reservations past their
/// end give their stock back, orders whose PG answer was lost are settled, voids and lost refunds
/// are finished — without an operator or a cron entry. Every `KEYCAT_RECONCILE_SECONDS` (default
/// 60; 0 turns it off, for a shop that runs `keycat-admin payments reconcile` itself). Stops at
/// graceful shutdown, after the run in progress.
struct ReconciliationService: Service {
    let keycat: KeyCat
    let interval: Duration
    let logger: Logger
    /// Where each run's outcome is kept for the admin console.
    var record: ReconciliationRecord?

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await keycat.reconcile(every: interval) { outcome in
                record?.record(outcome)
                switch outcome {
                case let .success(report):
                    logger.debug("reconciled", metadata: ["report": "\(report)"])
                case let .failure(error):
                    logger.warning("reconciliation failed; the next run picks up what is left", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
