import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Synchronization
import Testing

/// Forwards to the simulator and, once armed, fills the disk (through the fault VFS, or as
/// ``FullDisk`` does) as the PG's answer to a payment look-up comes back: between a webhook's
/// start and its write.
final class DiskFillingLookUpGateway: PaymentGateway {
    let inner: PGGatewayClient
    private let armed = Mutex<(@Sendable () throws -> Void)?>(nil)

    init(_ simulator: PGSimulator) {
        inner = PGGatewayClient(
            transport: simulator.transport,
            configuration: PGClientConfiguration(apiKey: simulator.credentials.key, apiSecret: simulator.credentials.secret),
            clock: SystemClock(), logSink: DiscardingLogSink())
    }

    /// Fills the disk with `fill` at the next payment look-up by `impUID`.
    func fillAtNextLookUp(_ fill: @escaping @Sendable () throws -> Void = { FaultVFS.arm(.diskFull, nth: 1) }) {
        armed.withLock { $0 = fill }
    }

    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {
        try await inner.prepare(merchantUID: merchantUID, amount: amount)
    }
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment {
        let payment = try await inner.payment(impUID: impUID)
        if let fill = armed.withLock({ $0.take() }) {
            do { try fill() } catch { throw KeyCatError(.internalError, "could not fill the disk: \(error)") }
        }
        return payment
    }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(merchantUID: merchantUID) }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage { try await inner.payments(query) }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment { try await inner.cancel(cancellation) }
}

extension FaultInjectionTests {
    @Suite("Webhooks on a full disk")
    struct WebhookFullDisk {
        @Test("a webhook whose payment could not be written on a full disk is applied when the PG redelivers it, not dropped as a duplicate")
        func redeliveryAfterFullDisk() async throws {
            FaultVFS.reset()
            defer { FaultVFS.reset() }
            let simulator = try PGSimulator()
            let gateway = DiskFillingLookUpGateway(simulator)
            try await TestShop.with(configure: { configuration in
                configuration.paymentGateway = .custom(gateway, webhookSecrets: [simulator.webhookSecret])
                configuration.store.sqlite?.vfs = FaultVFS.name
            }) { shop in
                try await redelivery(shop, simulator, fill: { gateway.fillAtNextLookUp() }, free: { FaultVFS.disarm() })
                #expect(FaultVFS.failures > 0)
            }
        }
    }
}

/// A webhook's payment write fails on a full disk; once there is room, the PG's redelivery of the
/// same webhook is applied, and only a third delivery is a duplicate. `fill` arms the full disk
/// for the gateway's next look-up; `free` makes room again.
func redelivery(_ shop: TestShop, _ simulator: PGSimulator, fill: () -> Void, free: () throws -> Void) async throws {
    let product = try await shop.product(stock: 3)
    let buyer = try await shop.user(.buyer)
    let order = try await shop.checkout(product, by: buyer)
    let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)

    fill()
    await expectFailure(.storage) {
        try await shop.keycat.checkout.handleWebhook(id: "wh_full", impUID: payment.impUID, merchantUID: order.merchantUID)
    }
    try free()  // room on the disk again
    await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)

    // The PG got no 2xx, so it delivers the same webhook again.
    let redelivered = try await shop.keycat.checkout.handleWebhook(
        id: "wh_full", impUID: payment.impUID, merchantUID: order.merchantUID)
    guard case .settled(.paid) = redelivered else {
        Issue.record("the redelivery was \(redelivered), not applied")
        return
    }
    await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .paid)
    // A third delivery is the duplicate.
    #expect(try await shop.keycat.checkout.handleWebhook(
        id: "wh_full", impUID: payment.impUID, merchantUID: order.merchantUID) == .duplicate)
    try await shop.expectHealthy()
}

/// The same on Postgres, whose full disk is ``FullDisk``'s `disk_full` trigger, not the fault VFS.
@Suite("Webhooks on a full disk, on Postgres",
       .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
struct WebhookFullDiskPostgresTests {
    @Test("a webhook whose payment could not be written on a full disk is applied when the PG redelivers it, not dropped as a duplicate")
    func redeliveryAfterFullDisk() async throws {
        let simulator = try PGSimulator()
        let gateway = DiskFillingLookUpGateway(simulator)
        try await TestShop.with(.postgres, configure: { configuration in
            configuration.paymentGateway = .custom(gateway, webhookSecrets: [simulator.webhookSecret])
        }) { shop in
            let keycat = shop.keycat
            try await redelivery(shop, simulator, fill: { gateway.fillAtNextLookUp { try FullDisk.fill(keycat) } },
                                 free: { try FullDisk.free(keycat) })
        }
    }
}
