import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization
import KeyCatTestSupport
import Testing

/// Forwards to the simulator and, once armed, fills the shop's database right after the PG has
/// refunded: the disk is full exactly between the PG's answer and KeyCat's write of it.
final class DiskFillingGateway: PaymentGateway {
    let inner: PGGatewayClient
    private let armed = Mutex<KeyCat?>(nil)

    init(_ simulator: PGSimulator, clock: any WallClock) {
        inner = PGGatewayClient(
            transport: simulator.transport,
            configuration: PGClientConfiguration(apiKey: simulator.credentials.key, apiSecret: simulator.credentials.secret),
            clock: clock, logSink: DiscardingLogSink())
    }

    /// Fills `keycat`'s database right after the next cancel the PG applies.
    func fillAfterNextCancel(_ keycat: KeyCat) { armed.withLock { $0 = keycat } }

    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {
        try await inner.prepare(merchantUID: merchantUID, amount: amount)
    }
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(impUID: impUID) }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { try await inner.payment(merchantUID: merchantUID) }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage { try await inner.payments(query) }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment {
        let payment = try await inner.cancel(cancellation)
        if let keycat = armed.withLock({ $0.take() }) {
            do { try FullDisk.fill(keycat) } catch { throw KeyCatError(.internalError, "could not fill the disk: \(error)") }
        }
        return payment
    }
}

/// A disk that fills, on either store; every write that needs new space fails from then on.
///
/// On SQLite: `max_page_count` on KeyCat's one writer connection, capped at the file's current
/// size, then audit entries written until SQLite answers `SQLITE_FULL`. On Postgres, whose
/// server's disk a test cannot fill: a statement trigger on every table of the shop's schema
/// refuses inserts and updates with `disk_full` (SQLSTATE 53100), the error a full disk gives;
/// deletes, which need no space, still pass, as on a full SQLite file.
enum FullDisk {
    /// Blocking, so a gateway's synchronous hook can fill the disk between two of KeyCat's steps.
    static func fill(_ keycat: KeyCat) throws {
        if let postgres = keycat.store.database as? PostgresDatabase {
            try postgres.blockingWithConnection { try $0.execute(postgresFill) }
        } else {
            try fillSQLite(keycat)
        }
    }

    static func free(_ keycat: KeyCat) throws {
        if let postgres = keycat.store.database as? PostgresDatabase {
            try postgres.blockingWithConnection { try $0.execute(postgresFree) }
        } else {
            try keycat.database.withWriter { try $0.run("PRAGMA max_page_count = 1073741823") }
        }
    }

    private static func fillSQLite(_ keycat: KeyCat) throws {
        try keycat.database.withWriter { try $0.run("PRAGMA max_page_count = 1") }  // clamped to the current size
        for index in 0..<100_000 {
            let filled = Result {
                try keycat.database.blockingWrite {
                    try $0.run("INSERT INTO audit_log (actor, action, target, detail, created_at) VALUES ('filler', 'fill', 'disk', ?, 0)",
                               [.text("\(index)")])
                }
            }
            if case let .failure(error) = filled, (error as? SQLiteError)?.primaryCode == 13 {
                return  // SQLITE_FULL
            }
        }
        throw KeyCatError(.internalError, "the database never filled")
    }

    private static let postgresFill = """
        CREATE OR REPLACE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
        END $$;
        DO $$
        DECLARE name text;
        BEGIN
            FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
                EXECUTE format('CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE ON %I
                                FOR EACH STATEMENT EXECUTE FUNCTION full_disk()', name);
            END LOOP;
        END $$;
        """

    private static let postgresFree = """
        DO $$
        DECLARE name text;
        BEGIN
            FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
                EXECUTE format('DROP TRIGGER IF EXISTS full_disk ON %I', name);
            END LOOP;
        END $$;
        """
}

/// Every case runs on both stores (``TestStore``), the full disk made as ``FullDisk`` says.
@Suite("Refunds the PG made survive a local write failure")
struct RefundDurabilityTests {
    /// A shop whose gateway fills the disk on demand, with one paid order of 10,000 + 3,000.
    static func withPaidOrder(
        _ store: TestStore, _ body: (TestShop, DiskFillingGateway, PGSimulator, Order) async throws -> Void
    ) async throws {
        let simulator = try PGSimulator()
        let gateway = DiskFillingGateway(simulator, clock: SystemClock())
        try await TestShop.with(store, configure: { configuration in
            configuration.paymentGateway = .custom(gateway, webhookSecrets: [simulator.webhookSecret])
        }) { shop in
            let product = try await shop.product(stock: 5, price: 10_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            try await body(shop, gateway, simulator, paid)
        }
    }

    @Test("disk full after the PG refunded: one cancel at the PG, the refund pending, a retry never refunds twice, reconcile completes it",
          arguments: TestStore.allCases)
    func diskFullThenReconcileThenRetry(_ store: TestStore) async throws {
        try await Self.withPaidOrder(store) { shop, gateway, simulator, order in
            let keycat = shop.keycat
            gateway.fillAfterNextCancel(keycat)
            let request = RefundRequest(amount: Money(won: 4_000), reason: "dented case", idempotencyKey: "refund-42")
            let failure = await expectFailure(.storage) { try await keycat.orders.refund(order.id, request, by: shop.operatorConsole) }
            #expect(failure?.context["outcome"] == "gateway_refunded")
            #expect(failure?.message.contains("the PG refunded") == true)
            #expect(failure?.message.contains("reconciliation completes it") == true)
            #expect(simulator.cancellations(impUID: order.impUID!).map(\.amount) == [4_000])
            await #expect(try keycat.orders.order(order.id, by: Principal(userID: order.buyerID, role: .buyer)).refundedAmount == .zero)
            await #expect(try keycat.orders.refunds(of: order.id, by: shop.operatorConsole).map(\.status) == [.pending])
            // An operator's read of the order must be recorded first (docs/accounts.md), which the full disk refuses.
            await expectFailure(.storage) { try await keycat.orders.order(order.id, by: shop.operatorConsole) }

            // Retried while the disk is still full: it fails again, and the PG is not asked to refund again.
            await expectFailure(.storage) { try await keycat.orders.refund(order.id, request, by: shop.operatorConsole) }
            #expect(simulator.cancellations(impUID: order.impUID!).count == 1)

            try FullDisk.free(keycat)
            shop.passRefundWindow()
            #expect(try await keycat.checkout.reconcile().refundsSettled == 1)
            let settled = try await keycat.orders.order(order.id, by: shop.operatorConsole)
            #expect(settled.status == .partiallyRefunded && settled.refundedAmount == Money(won: 4_000))

            // The operator retries the same refund after reconciliation finished it: nothing moves.
            let retried = try await keycat.orders.refund(order.id, request, by: shop.operatorConsole)
            #expect(retried.refundedAmount == Money(won: 4_000))
            #expect(simulator.cancellations(impUID: order.impUID!).count == 1)
            #expect(simulator.payment(impUID: order.impUID!)?.cancelledAmount == 4_000)
            await #expect(try keycat.orders.refunds(of: order.id, by: shop.operatorConsole).map(\.status) == [.done])
            try await shop.expectHealthy()
        }
    }

    @Test("a retry with the same key after the disk is freed settles the pending refund itself",
          arguments: TestStore.allCases)
    func retrySettles(_ store: TestStore) async throws {
        try await Self.withPaidOrder(store) { shop, gateway, simulator, order in
            let keycat = shop.keycat
            gateway.fillAfterNextCancel(keycat)
            let request = RefundRequest(reason: "wrong colour", restock: true, idempotencyKey: "refund-full")
            await expectFailure(.storage) { try await keycat.orders.refund(order.id, request, by: shop.operatorConsole) }
            try FullDisk.free(keycat)
            let refunded = try await keycat.orders.refund(order.id, request, by: shop.operatorConsole)
            #expect(refunded.status == .refunded && refunded.refundedAmount == order.amount)
            #expect(simulator.cancellations(impUID: order.impUID!).count == 1)
            #expect(try await keycat.checkout.reconcile().refundsSettled == 0)
            await #expect(try shop.stock(of: order.lines[0].productID) == 5)
            try await shop.expectHealthy()
        }
    }

    @Test("the same key with another refund of the order is refused, even after its answer record expired",
          arguments: TestStore.allCases)
    func keyReusedForAnotherRefund(_ store: TestStore) async throws {
        try await Self.withPaidOrder(store) { shop, _, _, order in
            let keycat = shop.keycat
            _ = try await keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "late", idempotencyKey: "k"),
                                               by: shop.operatorConsole)
            shop.clock.advance(by: 2 * 24 * 60 * 60)
            await expectFailure(.idempotencyKeyReused) {
                try await keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 2_000), reason: "late", idempotencyKey: "k"),
                                               by: shop.operatorConsole)
            }
            let again = try await keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "late", idempotencyKey: "k"),
                                                       by: shop.operatorConsole)
            #expect(again.refundedAmount == Money(won: 1_000))
        }
    }
}
