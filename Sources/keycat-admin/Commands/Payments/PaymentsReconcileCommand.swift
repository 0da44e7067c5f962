import KeyCat

/// `keycat-admin payments reconcile`: settles expired and unknown-outcome orders, payments to
/// void and refunds whose answer was lost, by asking the PG. Safe to run at any time, from
/// several processes.
struct PaymentsReconcileCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reconcile",
        abstract: "Settle open orders, voids and refunds by asking the PG.")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) throws {
        let keycat = try context.openForPayments()
        defer { keycat.close() }
        let report = try waitFor { try await keycat.checkout.reconcile() }
        let rows: [(String, Int)] = [
            ("paid", report.paid), ("expired", report.expired), ("failed_or_voided", report.failedOrVoided),
            ("payments_voided", report.paymentsVoided), ("refunds_settled", report.refundsSettled),
            ("unresolved", report.unresolved),
        ]
        var table = TextTable(["OUTCOME", "COUNT"])
        for (name, count) in rows { table.append([name, String(count)]) }
        try keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "payments.reconcile", target: context.databasePath,
            detail: rows.map { "\($0.0)=\($0.1)" }.joined(separator: " "), at: keycat.configuration.clock.now()))
        context.emit(json: .object(rows.map { ($0.0, .int($0.1)) }), human: table.rendered())
    }
}
