/// `keycat-admin payments`: reconciliation and the payment-flow simulation.
struct PaymentsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "payments",
        abstract: "Reconcile payments with the PG, or simulate the payment flow.",
        subcommands: [PaymentsReconcileCommand.self, PaymentsSimulateCommand.self])
}
