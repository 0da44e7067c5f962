import Foundation
import KeyCat
import Synchronization

/// The last reconciliation run beside this server (``ReconciliationService``): when it ended and
/// what it did or why it failed, for the admin console's dashboard. Kept in memory: it is this
/// process's loop, and the next run writes over it.
final class ReconciliationRecord: Sendable {
    struct Run: Sendable {
        var endedAt: Date
        var outcome: Result<ReconcileReport, KeyCatError>
    }

    /// The pause between runs; nil when the server does not reconcile (`KEYCAT_RECONCILE_SECONDS=0`).
    let interval: Duration?
    private let last = Mutex<Run?>(nil)

    init(interval: Duration?) {
        self.interval = interval
    }

    func record(_ outcome: Result<ReconcileReport, KeyCatError>) {
        last.withLock { $0 = Run(endedAt: Date(), outcome: outcome) }
    }

    /// `{"enabled": …, "interval_seconds": …, "last_run": {"ended_at", "ok", "error"?, "paid", …} | null}`.
    var json: [String: any Sendable] {
        var object: [String: any Sendable] = ["enabled": interval != nil]
        if let interval { object["interval_seconds"] = Int(interval.components.seconds) }
        guard let run = last.withLock({ $0 }) else {
            object["last_run"] = NSNull()
            return object
        }
        var lastRun: [String: any Sendable] = ["ended_at": ISO8601DateFormatter().string(from: run.endedAt)]
        switch run.outcome {
        case let .success(report):
            lastRun["ok"] = true
            lastRun["paid"] = report.paid
            lastRun["expired"] = report.expired
            lastRun["failed_or_voided"] = report.failedOrVoided
            lastRun["refunds_settled"] = report.refundsSettled
            lastRun["unresolved"] = report.unresolved
            lastRun["orphans"] = report.orphans
        case let .failure(error):
            lastRun["ok"] = false
            lastRun["error"] = error.message
        }
        object["last_run"] = lastRun
        return object
    }
}
