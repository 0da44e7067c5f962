import Foundation
import KeyCat

/// `keycat-admin payments simulate …`: many buyers at once against the simulator with the fault
/// knobs, then the invariants and the whole of `db check` (integrity, foreign keys, invariants)
/// on the database. Exits 1 when one fails. Runs at `synchronous=FULL`, as production does,
/// unless `--durability normal` says otherwise.
struct PaymentsSimulateCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "simulate",
        abstract: "Run concurrent buyers through checkout, payment, webhooks and reconciliation; check the invariants.",
        discussion: """
            Creates its own two sellers, their products and buyers (each with an address) in the database; the PG is the \
            simulator beside it. Carts hold one to three products, so most orders ship as two sellers' parcels; sellers \
            ship some and refund a line of some (--line-refund-rate). The invariants include the settlement identity: \
            payouts + commission over the run's orders equal what the PG kept of their payments. It refuses a shop's \
            database (one holding accounts no run created), read-only, before changing it: it moves time past every reservation and reconciles every order.
            """,
        options: [
            OptionSpec(name: "orders", valueName: "N", help: "Orders attempted (default 200)."),
            OptionSpec(name: "buyers", valueName: "N", help: "Buyers at once (default 20)."),
            OptionSpec(name: "products", valueName: "N", help: "Products raced for (default 10)."),
            OptionSpec(name: "stock", valueName: "N", help: "Units per product (default: 90% of what the orders want)."),
            OptionSpec(name: "decline-rate", valueName: "P", help: "Chance a card is declined (default 0.1)."),
            OptionSpec(name: "fault-rate", valueName: "P", help: "Chance a PG request answers 5xx (default 0)."),
            OptionSpec(name: "timeout-rate", valueName: "P", help: "Chance the PG acts but the answer is lost (default 0)."),
            OptionSpec(name: "webhook-duplicate-rate", valueName: "P", help: "Chance a webhook comes twice (default 0)."),
            OptionSpec(name: "line-refund-rate", valueName: "P", help: "Chance a seller refunds a line of a confirmed order (default 0.1)."),
            OptionSpec(name: "seed", valueName: "S", help: "Seeds every random choice (default 1)."),
            OptionSpec(name: "durability", valueName: "full|normal",
                       help: "Commit durability, synchronous=FULL or NORMAL (default full, as production runs)."),
            OptionSpec(name: "catalog", valueName: "NAME",
                       help: "Share the products with other runs naming NAME (same --products and --stock), to race for the same units across processes."),
        ])

    let options: PaymentSimulation.Options

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var options = PaymentSimulation.Options()
        options.orders = try arguments.int("orders", in: 1...1_000_000) ?? options.orders
        options.buyers = try arguments.int("buyers", in: 1...1_000) ?? options.buyers
        options.products = try arguments.int("products", in: 1...1_000) ?? options.products
        options.stock = try arguments.int("stock", in: 0...1_000_000)
        options.declineRate = try arguments.probability("decline-rate") ?? options.declineRate
        options.faultRate = try arguments.probability("fault-rate") ?? options.faultRate
        options.timeoutRate = try arguments.probability("timeout-rate") ?? options.timeoutRate
        options.webhookDuplicateRate = try arguments.probability("webhook-duplicate-rate") ?? options.webhookDuplicateRate
        options.lineRefundRate = try arguments.probability("line-refund-rate") ?? options.lineRefundRate
        if let seed = try arguments.int64("seed") { options.seed = UInt64(bitPattern: seed) }
        options.sharedCatalog = arguments.string("catalog")
        options.durability = try arguments.choice("durability", as: KeyCat.SQLiteStore.Durability.self) ?? options.durability
        self.options = options
    }

    func run(_ context: CommandContext) async throws {
        let (store, options) = (context.configuration(), options)
        let progress = context.console.progressReporter(showing: !context.json)
        let report = try await PaymentSimulation.run(store: store, options: options) { done, total in
            guard done % 50 == 0 || done == total else { return }
            progress("simulating: \(done)/\(total) orders")
        }
        context.console.endProgress()
        let invariants: [(String, Int)] = [
            ("oversold_units", report.oversoldUnits), ("orders_charged_twice", report.ordersChargedTwice),
            ("paid_payments_without_paid_order", report.paidPaymentsWithoutPaidOrder),
            ("stock_conservation_errors", report.stockConservationErrors), ("unsettled_orders", report.unsettledOrders),
            ("orders_without_address", report.ordersWithoutAddress),
            ("settlement_identity_errors_won", Int(report.settlementIdentityErrors)),
            ("db_check_problems", report.databaseProblems),
        ]
        let activity: [(String, Int)] = [
            ("orders_attempted", report.ordersAttempted), ("orders_created", report.ordersCreated),
            ("out_of_stock", report.outOfStock), ("checkout_errors", report.checkoutErrors),
            ("confirmed", report.confirmed), ("declined", report.declined), ("confirm_errors", report.confirmErrors),
            ("webhook_deliveries", report.webhookDeliveries), ("reconciled_paid", report.reconcile.paid),
            ("reconciled_expired", report.reconcile.expired), ("payments_voided", report.reconcile.paymentsVoided),
        ] + report.statusCounts.sorted { $0.key < $1.key }.map { ("status_\($0.key)", $0.value) }
        var table = TextTable(["INVARIANT", "VALUE", ""])
        for (name, value) in invariants { table.append([name, String(value), value == 0 ? "ok" : "FAILED"]) }
        var counts = TextTable(["ACTIVITY", "COUNT"])
        for (name, value) in activity { counts.append([name, String(value)]) }
        let duration = String(format: "%.2f", report.durationSeconds)
        let problems = report.databaseProblemDetails.isEmpty ? ""
            : "\ndb check found:\n" + report.databaseProblemDetails.map { "  - \($0)\n" }.joined()
        context.emit(
            json: .object([
                ("holds", .bool(report.holds)),
                ("invariants", .object(invariants.map { ($0.0, .int($0.1)) })),
                ("activity", .object(activity.map { ($0.0, .int($0.1)) })),
                ("db_check", .array(report.databaseProblemDetails.map(JSONValue.string))),
                ("durability", .string(options.durability.rawValue)),
                ("duration_seconds", .double(report.durationSeconds)),
            ]),
            human: counts.rendered() + "\n" + table.rendered() + problems
                + "\n\(report.holds ? "Every invariant holds and db check finds the database healthy." : "An invariant FAILED.") (\(duration) s, synchronous=\(options.durability.rawValue.uppercased()))")
        if !report.holds { throw CommandFailure(exitCode: .domainError) }
    }
}
