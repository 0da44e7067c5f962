import Foundation
import KeyCat

/// `keycat-admin payments reconcile [--window-hours N] [--void-orphans]`: settles expired and
/// unknown-outcome orders, payments to void and refunds whose answer was lost, by asking the PG;
/// then walks the PG's paid payments of the window and reports the orphans — paid at the PG with
/// no order of KeyCat's paid by them — voiding them only with `--void-orphans` (an orphan may be
/// an order the shop shipped from a database it has since lost: look before refunding it).
/// Last, it sweeps expired idempotency keys in bounded batches and confirms the receipt of
/// parcels delivered longer ago than the purchase-confirmation delay (7 days; 구매확정). Safe to
/// run at any time, from several processes.
struct PaymentsReconcileCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reconcile",
        abstract: "Settle open orders, voids and refunds by asking the PG; find payments the PG holds without an order.",
        options: [GatewayWindowOption.spec],
        flags: [FlagSpec(name: "void-orphans", help: "Cancel the orphans found at the PG (default: only report them).")])

    let window: Double
    let voidOrphans: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        window = try GatewayWindowOption.seconds(arguments)
        voidOrphans = arguments.flag("void-orphans")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let options = GatewayReconciliation(lookback: window, voidOrphans: voidOrphans, actor: context.actor)
        let progress = context.console.progressReporter(showing: !context.json)
        let report = try await keycat.checkout.reconcile(gateway: options) { step in
            guard step.done % 50 == 0 || step.done == step.total else { return }
            progress("reconciling \(step.stage.rawValue): \(step.done) / \(step.total)")
        }
        context.console.endProgress()
        let returns = try await keycat.orders.settleApprovedReturns(by: context.principal)
        let confirmed = try await keycat.confirmDeliveredParcels()
        let pruned = try await keycat.pruneEvents()
        let auditPruned = try await keycat.pruneAuditLog()
        let rows: [(String, Int64)] = [
            ("paid", report.paid), ("expired", report.expired), ("failed_or_voided", report.failedOrVoided),
            ("payments_voided", report.paymentsVoided), ("refunds_settled", report.refundsSettled),
            ("unresolved", report.unresolved), ("gateway_payments_checked", report.gatewayPaymentsChecked),
            ("orphans", report.orphans), ("orphans_voided", report.orphansVoided),
            ("idempotency_keys_swept", report.idempotencyKeysSwept), ("webhook_ids_swept", report.webhookIDsSwept),
            ("returns_refunded", returns), ("parcels_confirmed", confirmed),
            ("events_pruned", pruned), ("audit_entries_pruned", auditPruned),
        ].map { ($0.0, Int64($0.1)) } + [("orphan_amount", report.orphanAmount.won)]
        var table = TextTable(["OUTCOME", "COUNT"])
        for (name, count) in rows { table.append([name, String(count)]) }
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "payments.reconcile", target: context.databaseName,
            detail: rows.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + (voidOrphans ? " void_orphans" : ""),
            at: keycat.configuration.clock.now()))
        var human = table.rendered()
        if !report.orphanPayments.isEmpty {
            human += "\n\nPaid at the PG without a paid order"
                + (voidOrphans ? " (voided: \(report.orphansVoided)):\n" : " (void them with --void-orphans):\n")
                + GatewayOutput.table(report.orphanPayments)
        }
        context.emit(json: .object(rows.map { ($0.0, .int($0.1)) }
                                   + [("orphan_payments", .array(report.orphanPayments.map(GatewayOutput.json)))]),
                     human: human)
    }
}
