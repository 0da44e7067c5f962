import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCat

/// The simulator's payments as a gateway in front of it reports them: `change` rewrites each
/// payment read, and `takesRealMoney` says whether the gateway is live.
struct ReportingGateway: PaymentGateway {
    let inner: any PaymentGateway
    let takesRealMoney: Bool
    let change: @Sendable (inout GatewayPayment) -> Void

    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) { try await inner.prepare(merchantUID: merchantUID, amount: amount) }
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment { rewritten(try await inner.payment(impUID: impUID)) }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { rewritten(try await inner.payment(merchantUID: merchantUID)) }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment { try await inner.cancel(cancellation) }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage {
        var page = try await inner.payments(query)
        page.payments = page.payments.map(rewritten)
        return page
    }

    private func rewritten(_ payment: GatewayPayment) -> GatewayPayment {
        var payment = payment
        change(&payment)
        return payment
    }
}

/// The PG's answer is checked whole (docs/payments-gateway.md): a payment pays for an order only
/// in its currency (KRW), and at a live gateway only when it is not a test payment.
@Suite("The PG's answer is checked whole: currency and test mode")
struct PaymentAnswerTests {
    /// A shop whose gateway reads the simulator through ``ReportingGateway``.
    static func withShop(_ store: TestStore, live: Bool, _ change: @escaping @Sendable (inout GatewayPayment) -> Void,
                         _ body: (TestShop, PGSimulator) async throws -> Void) async throws {
        try await TestShop.with(store, gateway: { ReportingGateway(inner: $0, takesRealMoney: live, change: change) }, body)
    }

    @Test("a test payment at a live gateway pays for nothing: the order fails, the stock comes back, the payment is cancelled",
          arguments: TestStore.allCases)
    func testPaymentAtALiveGateway(_ store: TestStore) async throws {
        try await Self.withShop(store, live: true, { $0.isTestPayment = true }) { shop, simulator in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
            let refusal = await expectFailure(.paymentAmountForged) {
                try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            }
            #expect(refusal?.context["reason"]?.contains("test") == true, "\(String(describing: refusal))")
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .failed)
            await #expect(try shop.stock(of: product.id) == 3)
            #expect(simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            let audit = try await shop.keycat.auditLog.recent(limit: 5)
            #expect(audit.contains { $0.action == "order.fail" && $0.detail.contains("test (sandbox) payment") })
            try await shop.expectHealthy()
        }
    }

    @Test("a test payment at a test gateway pays as always", arguments: TestStore.allCases)
    func testPaymentAtATestGateway(_ store: TestStore) async throws {
        try await Self.withShop(store, live: false, { $0.isTestPayment = true }) { shop, simulator in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
            await #expect(try shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer).status == .paid)
        }
    }

    @Test("a payment in another currency, or in none, pays for nothing, by confirm or by reconciliation",
          arguments: TestStore.allCases, ["USD", ""])
    func otherCurrency(_ store: TestStore, currency: String) async throws {
        try await Self.withShop(store, live: false, { $0.currency = currency }) { shop, simulator in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let confirmed = try await shop.checkout(product, by: buyer)
            let first = try simulator.pay(merchantUID: confirmed.merchantUID, cardNumber: PGTestCard.success.number)
            let refusal = await expectFailure(.paymentAmountForged) {
                try await shop.keycat.checkout.confirm(confirmed.id, impUID: first.impUID, by: buyer)
            }
            #expect(refusal?.context["reason"]?.contains("not KRW") == true)
            // Left to reconciliation, the same.
            let reconciled = try await shop.checkout(product, by: buyer)
            let second = try simulator.pay(merchantUID: reconciled.merchantUID, cardNumber: PGTestCard.success.number)
            shop.clock.advance(by: 21 * 60)
            _ = try await shop.keycat.checkout.reconcile()
            for (order, payment) in [(confirmed, first), (reconciled, second)] {
                await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .failed)
                #expect(simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            }
            await #expect(try shop.stock(of: product.id) == 3)
            try await shop.expectHealthy()
        }
    }

    @Test("the gateway client reads v1's currency and sandbox flag; a PortOne gateway is live unless test payments are accepted")
    func wire() async throws {
        let simulator = try PGSimulator()
        let client = PGGatewayClient(
            transport: simulator.transport,
            configuration: PGClientConfiguration(apiKey: simulator.credentials.key, apiSecret: simulator.credentials.secret),
            logSink: DiscardingLogSink())
        try await client.prepare(merchantUID: "wire-1", amount: Money(won: 1_000))
        let paid = try simulator.pay(merchantUID: "wire-1", cardNumber: PGTestCard.success.number)
        let read = try await client.payment(impUID: paid.impUID)
        #expect(read.currency == "KRW" && read.isTestPayment && !client.takesRealMoney)

        var configuration = KeyCat.Configuration(databasePath: ":memory:")
        configuration.paymentGateway = .portOne(baseURL: URL(string: "https://api.iamport.kr")!, apiKey: "k", apiSecret: "s",
                                                webhooks: .portOneNotifications)
        #expect(try KeyCat.makeGateway(configuration, simulatorWebhookSecret: "x").gateway.takesRealMoney)
        configuration.acceptsTestPayments = true
        #expect(try !KeyCat.makeGateway(configuration, simulatorWebhookSecret: "x").gateway.takesRealMoney)
        configuration.paymentGateway = .simulatorBesideDatabase
        configuration.acceptsTestPayments = false
        #expect(try !KeyCat.makeGateway(configuration, simulatorWebhookSecret: "x").gateway.takesRealMoney)
    }

    @Test("a re-read of the payment that paid an order is never refused, whatever the answer now lacks", arguments: TestStore.allCases)
    func reReadOfItsOwnPayment(_ store: TestStore) async throws {
        let lacksCurrency = Mutex(false)
        // A live gateway's real payment; later its answers come without a currency.
        try await Self.withShop(store, live: true, { payment in
            payment.isTestPayment = false
            if lacksCurrency.withLock({ $0 }) { payment.currency = "" }
        }) { shop, simulator in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
            _ = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            lacksCurrency.withLock { $0 = true }
            // A webhook delivered late re-reads the payment and settles again: already paid.
            let late = try await shop.keycat.checkout.handleWebhook(id: "msg_late", impUID: payment.impUID, merchantUID: order.merchantUID)
            guard case let .settled(.alreadyPaid(again)) = late else {
                Issue.record("a late webhook re-read the paid order's payment as \(late)")
                return
            }
            #expect(again.status == .paid)
            #expect(simulator.payment(impUID: payment.impUID)?.status == .paid)
            try await shop.expectHealthy()
        }
    }
}
