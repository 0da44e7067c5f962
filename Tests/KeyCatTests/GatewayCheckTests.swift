import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

@Suite("db check --gateway: both sides cross-checked")
struct GatewayCheckTests {
    @Test("a cancel made at the PG behind KeyCat's back, and a refund still pending, are reported until they agree",
          arguments: TestStore.allCases)
    func refundsAgainstCancels(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            #expect(try await shop.keycat.checkGateway().isClean)

            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)
            await expectFailure(.gatewayTimeout) {
                try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 2_000), reason: "dent"), by: shop.operatorConsole)
            }
            let pending = try await shop.keycat.checkGateway()
            #expect(pending.problems.count == 1 && pending.orphans.isEmpty)
            #expect(pending.problems.first?.contains("a refund pending?") == true, "\(pending.problems)")
            shop.passRefundWindow()
            _ = try await shop.keycat.checkout.reconcile()
            #expect(try await shop.keycat.checkGateway().isClean)

            // Someone refunds 1,000 at the PG directly.
            let client = PGGatewayClient(
                transport: shop.simulator.transport,
                configuration: PGClientConfiguration(apiKey: shop.simulator.credentials.key, apiSecret: shop.simulator.credentials.secret),
                clock: shop.clock, logSink: DiscardingLogSink())
            _ = try await client.cancel(GatewayCancellation(target: .impUID(order.impUID!), amount: Money(won: 1_000),
                                                            checksum: Money(won: 11_000), reason: "out of band"))
            let behindOurBack = try await shop.keycat.checkGateway()
            #expect(behindOurBack.problems.count == 1)
            #expect(behindOurBack.problems.first?.contains("KeyCat refunded") == true, "\(behindOurBack.problems)")
            try await shop.expectHealthy()  // KeyCat's side alone cannot see it
        }
    }

    @Test("an order KeyCat holds paid whose payment the PG does not have is reported", arguments: TestStore.allCases)
    func paidOrderWithoutPGPayment(_ store: TestStore) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            let pgPath = PGSimulator.storagePath(besideDatabase: configuration.databasePath)
            let olderPG = pgPath + ".older"
            let clock = TestClock()
            let admin = Principal.operatorConsole("tester")
            let keycat = try await TestShop.open(configuration, clock: clock)
            let seller = try await keycat.accounts.createUser(SignUpForm(email: "s@example.com", password: "keycat123", nick: "seller"),
                                                              role: .seller, by: admin)
            let user = try await keycat.accounts.createUser(SignUpForm(email: "b@example.com", password: "keycat123", nick: "buyer"),
                                                            role: .buyer, by: admin)
            let buyer = Principal(userID: user.id, role: .buyer)
            let product = try await keycat.catalog.create(TestShop.draft(price: 10_000) { $0.stock = 5 }, for: seller.id, by: admin)
            _ = try await RestoreDrillTests.paidOrder(keycat, product.id, quantity: 1, by: buyer)
            keycat.close()
            try FileManager.default.copyItem(atPath: pgPath, toPath: olderPG)  // the PG as it was (checkpointed on close)
            let reopened = try await TestShop.open(configuration, clock: clock)
            let lost = try await RestoreDrillTests.paidOrder(reopened, product.id, quantity: 2, by: buyer)
            reopened.close()
            // The PG's state goes back in time; KeyCat keeps the newer order.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: pgPath + suffix) }
            try FileManager.default.copyItem(atPath: olderPG, toPath: pgPath)
            let shop = try await TestShop.open(configuration, clock: clock)
            defer { shop.close() }
            let check = try await shop.checkGateway()
            #expect(check.orphans.isEmpty && check.ordersChecked == 2)
            #expect(check.problems == ["order \(lost.id) is paid by \(lost.impUID!), which the PG does not have"])
        }
    }
}
