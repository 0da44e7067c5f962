import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

extension TestShop {
    /// A shop on `store` whose gateway is `gateway` made around the PG client of a simulator of
    /// its own, all on one test clock: for gateways that change what the PG answers, or when.
    static func with(_ store: TestStore, gateway: (any PaymentGateway) -> any PaymentGateway,
                     _ body: (TestShop, PGSimulator) async throws -> Void) async throws {
        let clock = TestClock()
        let simulator = try PGSimulator(now: { clock.now() })
        let client = PGGatewayClient(
            transport: simulator.transport,
            configuration: PGClientConfiguration(apiKey: simulator.credentials.key, apiSecret: simulator.credentials.secret),
            clock: clock, logSink: DiscardingLogSink())
        let wrapped = gateway(client)
        try await TestShop.with(store, configure: {
            $0.clock = clock
            $0.paymentGateway = .custom(wrapped, webhookSecrets: [simulator.webhookSecret])
        }) { shop in try await body(shop, simulator) }
    }

    /// Moves the shop's clock past its refunds' in-flight window, after which reconciliation
    /// takes up the refunds left pending before.
    func passRefundWindow() { clock.advance(by: keycat.checkout.refundInFlightWindow) }

    /// The simulator beside the shop's database.
    var simulator: PGSimulator { keycat.paymentSimulator! }

    /// A listed product with `stock` units, sold by a fresh seller.
    func product(stock: Int = 10, price: Int64 = 100_000) async throws -> Product {
        let seller = try await user(.seller)
        return try await keycat.catalog.create(TestShop.draft(price: price) { $0.stock = stock }, for: seller.userID, by: seller)
    }

    /// The product's stock now.
    func stock(of id: ProductID) async throws -> Int { try await keycat.catalog.product(id).stock }

    /// Checks out `quantity` of `product` for `buyer`.
    func checkout(_ product: Product, quantity: Int = 1, by buyer: Principal, key: String? = nil) async throws -> Order {
        try await keycat.checkout.checkout(
            CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: quantity)]), idempotencyKey: key), by: buyer)
    }

    /// Pays `order` at the simulator with the card that succeeds.
    @discardableResult
    func pay(_ order: Order, card: PGTestCard = .success) throws -> PGPaymentRecord {
        try simulator.pay(merchantUID: order.merchantUID, cardNumber: card.number)
    }

    /// Checks out, pays and confirms one unit.
    func paidOrder(_ product: Product, quantity: Int = 1, by buyer: Principal) async throws -> Order {
        let order = try await checkout(product, quantity: quantity, by: buyer)
        let payment = try pay(order)
        return try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
    }

    /// Checks out, pays, confirms, ships and delivers, and the buyer confirms receipt
    /// (구매확정): an order its buyer may review.
    func receivedOrder(_ product: Product, quantity: Int = 1, by buyer: Principal) async throws -> Order {
        let order = try await paidOrder(product, quantity: quantity, by: buyer)
        _ = try await keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: parcelNumber(order.id.rawValue, prefix: "5532"), by: operatorConsole)
        let delivered = try await keycat.orders.deliver(order.id, by: operatorConsole)
        var received = delivered
        for shipment in delivered.shipments { received = try await keycat.orders.confirmReceipt(of: shipment.id, by: buyer) }
        return received
    }

    /// Expects the database to pass `db check`.
    func expectHealthy(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let report = try await keycat.checkHealth()
        #expect(report.isHealthy, "\(report)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a ``KeyCatError`` with `code`; returns it.
@discardableResult
func expectFailure<Result>(
    _ code: KeyCatError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Result
) async -> KeyCatError? {
    do {
        _ = try await body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as KeyCatError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
