import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Many buyers at once through checkout → payment at the simulator → confirm and/or webhooks →
/// reconciliation, with PG faults, lost answers and duplicate, reordered webhooks; then the
/// invariants (architecture §8 `payments simulate`).
///
/// It works on a real database file (its own seller, products and buyers, tagged per run) and the
/// simulator file beside it, so several processes can run it against one file at once. Its clock
/// is a ``TestClock`` starting now, moved past the reservation before reconciling.
public enum PaymentSimulation {
    /// The knobs. Rates are probabilities from 0 to 1.
    public struct Options: Sendable, Hashable {
        /// Orders attempted in all.
        public var orders = 200
        /// Buyers checking out at once.
        public var buyers = 20
        /// Products they race for.
        public var products = 10
        /// Units per product. Nil (the default): 90% of what the orders want on average (about
        /// two products a cart, 1.5 units each), so most orders succeed and the last units are
        /// fought over.
        public var stock: Int?
        /// Chance a buyer pays with a card that is declined (half of them retry with a good card).
        public var declineRate = 0.1
        /// Chance a PG request answers 5xx.
        public var faultRate = 0.0
        /// Chance the PG acts but its answer is lost.
        public var timeoutRate = 0.0
        /// Chance a webhook is delivered twice (webhooks are always delivered in shuffled batches).
        public var webhookDuplicateRate = 0.0
        /// Chance a buyer walks away after checkout without paying.
        public var abandonRate = 0.1
        /// Chance a buyer who paid never confirms (the webhook or reconciliation must settle it).
        public var skipConfirmRate = 0.2
        /// Chance a seller refunds one line of an order the buyer confirmed.
        public var lineRefundRate = 0.1
        public var seed: UInt64 = 1
        /// A catalog name shared by several runs (and processes): runs naming the same catalog
        /// race for the same products, created once by whichever run comes first. Runs sharing a
        /// catalog must agree on ``products`` and ``stock``. Nil: a fresh catalog per run.
        public var sharedCatalog: String?
        /// Commit durability of the run on SQLite: what production runs
        /// (``KeyCat/SQLiteStore/Durability/full``) unless told otherwise, so the run measures and
        /// proves what a shop gets. Postgres's is its server's `synchronous_commit`.
        public var durability: KeyCat.SQLiteStore.Durability = .full

        public init() {}

        /// The units each product starts with.
        public var unitsPerProduct: Int {
            stock ?? max(1, orders * 2 * 3 / 2 * 9 / 10 / max(1, products))
        }
    }

    /// What the run did and what it found. ``holds`` when every invariant is zero.
    public struct Report: Sendable, Hashable, Codable {
        public var ordersAttempted = 0
        public var ordersCreated = 0
        public var outOfStock = 0
        public var checkoutErrors = 0
        public var confirmed = 0
        public var declined = 0
        public var confirmErrors = 0
        public var webhookDeliveries = 0
        public var reconcile = ReconcileReport()
        /// Final statuses of the run's orders.
        public var statusCounts: [String: Int] = [:]
        /// Units sold beyond the stock there was.
        public var oversoldUnits = 0
        /// Orders with more than one paid payment.
        public var ordersChargedTwice = 0
        /// Payments paid at the PG whose order is not paid.
        public var paidPaymentsWithoutPaidOrder = 0
        /// Units unaccounted for: |initial − stock − units held by unreturned lines|, summed.
        public var stockConservationErrors = 0
        /// Won by which the run's settlement ledger and the PG disagree: Σ payouts + Σ commission,
        /// as closing would compute them over the run's orders, against what the PG kept of their
        /// payments (captured − cancelled).
        public var settlementIdentityErrors: Int64 = 0
        /// Orders of the run checked out to an address (all of them: every buyer keeps one).
        public var ordersWithoutAddress = 0
        /// Orders still awaiting payment after reconciliation.
        public var unsettledOrders = 0
        /// Problems `db check` finds on the whole database after the run: SQLite's integrity
        /// and foreign-key checks and KeyCat's invariants, from the same health check.
        public var databaseProblems = 0
        /// Whether that health check found the database healthy; false fails the run.
        public var databaseHealthy = true
        /// What it found, each line prefixed with its check (see ``KeyCat/HealthReport/allProblems``).
        public var databaseProblemDetails: [String] = []
        public var durationSeconds = 0.0

        /// Whether every invariant holds.
        public var holds: Bool {
            oversoldUnits == 0 && ordersChargedTwice == 0 && paidPaymentsWithoutPaidOrder == 0
                && stockConservationErrors == 0 && unsettledOrders == 0 && databaseProblems == 0 && databaseHealthy
                && settlementIdentityErrors == 0 && ordersWithoutAddress == 0
        }
    }

    /// Runs the simulation on the SQLite database at `databasePath` (created and migrated if needed).
    ///
    /// - Parameter progress: called with (orders done, orders in all) as buyers go.
    public static func run(databasePath: String, options: Options,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) async throws(KeyCatError) -> Report {
        try await run(store: KeyCat.Configuration(databasePath: databasePath), options: options, progress: progress)
    }

    /// Runs the simulation on the store `store` names — a SQLite file or a Postgres database
    /// (``KeyCat/PostgresStore``) — with the PG simulator's file beside
    /// `store.databasePath`. Only the store's location is taken from `store`: the clock, the
    /// gateway and the durability are the simulation's own.
    ///
    /// - Parameter progress: called with (orders done, orders in all) as buyers go.
    public static func run(store: KeyCat.Configuration, options: Options,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) async throws(KeyCatError) -> Report {
        let databasePath = store.databasePath
        try await SimulationWorld.requireOwnDatabase(at: store.store)
        let started = Date()
        let clock = TestClock(started)
        let simulator: PGSimulator
        do {
            simulator = try PGSimulator(
                storage: .file(path: PGSimulator.storagePath(besideDatabase: databasePath)),
                faults: PGFaultConfiguration(seed: options.seed, serverErrorRate: options.faultRate,
                                             lostAnswerRate: options.timeoutRate,
                                             webhookDuplicateRate: options.webhookDuplicateRate, webhookReordering: true),
                now: { clock.now() })
        } catch {
            throw KeyCatError(.storage, "the PG simulator's file could not be opened: \(error)")
        }
        defer { simulator.close() }
        var configuration = KeyCat.Configuration(store.store)
        configuration.clock = clock
        configuration.store.sqlite?.durability = options.durability
        configuration.passwordIterations = 1_000
        configuration.paymentGateway = .simulator(simulator)
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        // A few simulated buyers place thousands of orders and leave many unpaid: the per-buyer
        // caps would refuse most of the run (they have their own tests).
        configuration.stockHolds = nil
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        simulator.registerWebhookReceiver(InProcessTransport(WebhookHTTPHandler(keycat.webhooks)), path: "/webhooks/pg")

        try await SimulationWorld.requireOwnDatabase(keycat)
        let world = try await SimulationWorld.build(keycat, options: options)
        var report = try await SimulationBuyers(keycat: keycat, simulator: simulator, world: world, options: options)
            .run(progress: progress)
        // Everything the PG still has to say, then time passes and reconciliation settles the rest.
        for _ in 0..<5 where simulator.pendingWebhookCount > 0 {
            report.webhookDeliveries += await simulator.deliverPendingWebhooks()
        }
        clock.advance(by: configuration.reservationLifetime + CheckoutService.latePaymentGrace + 60)
        for _ in 0..<5 {
            let pass = try await keycat.checkout.reconcile(limit: 100_000)
            report.reconcile.add(pass)
            report.webhookDeliveries += await simulator.deliverPendingWebhooks()
            if pass.unresolved == 0 && pass.paid == 0 && pass.expired == 0 && pass.paymentsVoided == 0 { break }
        }
        try await SimulationAudit(keycat: keycat, simulator: simulator, world: world).fill(&report)
        report.durationSeconds = Date().timeIntervalSince(started)
        return report
    }
}

extension ReconcileReport {
    mutating func add(_ other: ReconcileReport) {
        paid += other.paid
        expired += other.expired
        failedOrVoided += other.failedOrVoided
        paymentsVoided += other.paymentsVoided
        refundsSettled += other.refundsSettled
        idempotencyKeysSwept += other.idempotencyKeysSwept
        webhookIDsSwept += other.webhookIDsSwept
        unresolved = other.unresolved
        gatewayPaymentsChecked = other.gatewayPaymentsChecked
        orphans = other.orphans
        orphanAmount = other.orphanAmount
        orphansVoided += other.orphansVoided
        orphanPayments = other.orphanPayments
    }
}
