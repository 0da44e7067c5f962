import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// The restore drill: the shop's database is restored from an older backup while the PG (its
/// simulator file) keeps every payment made since. Only the PG's own listing can find those.
///
/// SQLite only: the drill restores a file from a SQLite backup.
@Suite("Restore drill: the PG's side finds the payments an older backup lost")
struct RestoreDrillTests {
    static func open(_ path: String, _ clock: TestClock) async throws -> KeyCat {
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.clock = clock
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        return try await KeyCat.open(configuration)
    }

    /// Checks out `quantity` units, pays at the simulator and confirms.
    static func paidOrder(_ keycat: KeyCat, _ product: ProductID, quantity: Int, by buyer: Principal) async throws -> Order {
        let order = try await keycat.checkout.checkout(
            CheckoutRequest(.items([CheckoutItem(productID: product, quantity: quantity)])), by: buyer)
        let payment = try keycat.paymentSimulator!.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
        return try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
    }

    @Test("restored from an older backup: every orphan PG payment is found, reported until voided, and the check is clean after")
    func drill() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            let backup = directory.appendingPathComponent("backup.db").path
            let clock = TestClock()
            let admin = Principal.operatorConsole("tester")

            let shop = try await Self.open(path, clock)
            let seller = try await shop.accounts.createUser(SignUpForm(email: "s@example.com", password: "keycat123", nick: "seller"),
                                                            role: .seller, by: admin)
            let user = try await shop.accounts.createUser(SignUpForm(email: "b@example.com", password: "keycat123", nick: "buyer"),
                                                          role: .buyer, by: admin)
            let buyer = Principal(userID: user.id, role: .buyer)
            let product = try await shop.catalog.create(TestShop.draft(price: 10_000) { $0.stock = 50 }, for: seller.id, by: admin)
            var kept: [Order] = []
            for quantity in [1, 2] { kept.append(try await Self.paidOrder(shop, product.id, quantity: quantity, by: buyer)) }
            try await shop.backup(to: backup, by: admin)
            clock.advance(by: 10 * 60)
            var lost: [Order] = []
            for quantity in [1, 3, 4] { lost.append(try await Self.paidOrder(shop, product.id, quantity: quantity, by: buyer)) }
            shop.close()

            // The restore: the older copy replaces the database; the simulator's file stays as it is.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            let restored = try await Self.open(path, clock)
            defer { restored.close() }
            await #expect(try restored.checkHealth().isHealthy)  // the copy alone looks fine
            let lostAmount = Money(won: lost.reduce(0) { $0 + $1.amount.won })
            #expect(lostAmount == Money(won: 13_000 + 33_000 + 43_000))

            let check = try await restored.checkGateway()
            #expect(!check.isClean)
            #expect(Set(check.orphans.map(\.merchantUID)) == Set(lost.map(\.merchantUID)))
            #expect(check.orphans.allSatisfy { $0.reason == .noOrder })
            #expect(check.orphanAmount == lostAmount)
            #expect(check.problems.count == 3, "\(check.problems)")

            // Reconcile reports them and, by default, leaves the money where it is.
            let report = try await restored.checkout.reconcile()
            #expect(report.gatewayPaymentsChecked == 5 && report.orphans == 3 && report.orphansVoided == 0)
            #expect(report.orphanAmount == lostAmount)
            #expect(try await restored.checkGateway().orphans.count == 3)

            // Asked to, it voids them at the PG, audited, and the two sides agree again.
            let voiding = try await restored.checkout.reconcile(gateway: GatewayReconciliation(voidOrphans: true, actor: "cli:tester"))
            #expect(voiding.orphans == 3 && voiding.orphansVoided == 3)
            let simulator = restored.paymentSimulator!
            for order in lost {
                #expect(simulator.payment(merchantUID: order.merchantUID)?.status == .cancelled)
                #expect(simulator.cancellations(impUID: order.impUID!).count == 1)
            }
            for order in kept { #expect(simulator.payment(merchantUID: order.merchantUID)?.status == .paid) }
            let voids = try await restored.auditLog.recent(limit: 50).filter { $0.action == "payment.void_orphan" }
            #expect(voids.count == 3 && voids.allSatisfy { $0.actor == "cli:tester" })
            let after = try await restored.checkGateway()
            #expect(after.isClean, "\(after.problems)")
            #expect(after.ordersChecked == 2)
            await #expect(try restored.checkHealth().isHealthy)
            let again = try await restored.checkout.reconcile(gateway: GatewayReconciliation(voidOrphans: true))
            #expect(again.orphans == 0 && again.orphansVoided == 0)
        }
    }
}
