import Foundation
import KeyCatData
import KeyCatDomain
import Synchronization
import Testing

/// A PG in memory: payments by imp_uid, cancels applied with the checksum rule.
final class FakeGateway: PaymentGateway {
    let payments = Mutex<[String: GatewayPayment]>([:])
    let cancels = Atomic<Int>(0)

    func add(_ payment: GatewayPayment) { payments.withLock { $0[payment.impUID] = payment } }
    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {}
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment {
        guard let payment = payments.withLock({ $0[impUID] }) else { throw KeyCatError(.paymentNotFound, "no such payment") }
        return payment
    }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment {
        guard let payment = payments.withLock({ $0.values.first { $0.merchantUID == merchantUID } }) else {
            throw KeyCatError(.paymentNotFound, "no such payment")
        }
        return payment
    }
    /// Every payment of the status on one page (the fake keeps no start times).
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage {
        let matching = payments.withLock { Array($0.values) }
            .filter { query.status == nil || $0.status == query.status }.sorted { $0.impUID < $1.impUID }
        return GatewayPaymentPage(total: matching.count, previous: nil, next: nil, payments: matching)
    }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment {
        guard case let .impUID(impUID) = cancellation.target else { throw KeyCatError(.gatewayInvalidRequest, "by imp_uid only") }
        cancels.add(1, ordering: .relaxed)
        return try payments.withLock { payments throws(KeyCatError) -> GatewayPayment in
            guard var payment = payments[impUID] else { throw KeyCatError(.paymentNotFound, "no such payment") }
            guard payment.cancellableAmount == cancellation.checksum else {
                throw KeyCatError(.cancellableAmountInconsistent, "checksum")
            }
            let amount = cancellation.amount ?? payment.cancellableAmount
            payment.cancelledAmount = Money(won: payment.cancelledAmount.won + amount.won)
            if payment.cancelledAmount == payment.amount { payment.status = .cancelled }
            payments[impUID] = payment
            return payment
        }
    }
}

/// The one product the checkout tests sell.
struct OneProduct: ProductRepository {
    let product: Product
    func insert(_ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, audit: AuditEntry?) throws(KeyCatError) -> Product { product }
    func find(_ id: ProductID) throws(KeyCatError) -> Product? { id == product.id ? product : nil }
    func update(_ product: Product, expectedVersion: Int, unlessPaidFor refusal: KeyCatError?, at now: Date, audit: AuditEntry?)
        throws(KeyCatError) -> Product { product }
    func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, at now: Date, audit: AuditEntry) throws(KeyCatError) -> Product { product }
    func stockMovements(of id: ProductID, after: Int64?, limit: Int) throws(KeyCatError) -> [StockMovement] { [] }
    func setImages(_ images: [ProductImage], of id: ProductID, expectedVersion: Int, at now: Date, audit: AuditEntry?)
        throws(KeyCatError) -> Product { product }
    func delete(_ id: ProductID, expectedVersion: Int?, at now: Date, audit: AuditEntry?) throws(KeyCatError) {}
    func list(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> [Product] { [product] }
    func search(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) throws(KeyCatError) -> SearchPage {
        SearchPage(hits: [SearchHit(product: product, key: 0)])
    }
    func isActiveSeller(_ sellerID: UserID) throws(KeyCatError) -> Bool { true }
    func sweepLapsedDiscounts(at now: Date) throws(KeyCatError) -> (changed: Int, nextEnd: Date?) { (0, nil) }
    func imageFileNames(withdrawnSince: Date) throws(KeyCatError) -> Set<String> { [] }
    func forgetImages(ofListingsWithdrawnBefore cutoff: Date, dryRun: Bool, at now: Date, audit: AuditEntry) throws(KeyCatError) -> Int { 0 }
}

@Suite("Checkout on in-memory repositories")
struct InMemoryCheckoutTests {
    let clock = TestClock()
    let gateway = FakeGateway()
    let carts = InMemoryCartRepository()
    let orders: InMemoryOrderRepository
    let checkout: CheckoutService
    let product: Product
    let buyer = Principal(userID: UserID(7), role: .buyer)

    init() {
        orders = InMemoryOrderRepository(carts: carts)
        product = Product(
            id: ProductID(1), sellerID: UserID(2), kind: .commercial, category: .switch, title: "Gateron Oil King",
            content: "", pricing: Pricing(regularPrice: Money(won: 700), salePrice: Money(won: 600)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .standard), stock: 3, images: [],
            spec: KeyboardSpec(), createdAt: clock.now(), updatedAt: clock.now())
        orders.setStock(3, of: product.id)
        checkout = CheckoutService(
            orders: orders, carts: carts, products: OneProduct(product: product), gateway: gateway,
            webhookEvents: InMemoryWebhookEventStore(), idempotency: InMemoryIdempotencyStore(), clock: clock)
    }

    func order(quantity: Int = 1) async throws -> Order {
        try await checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: quantity)])), by: buyer)
    }

    @Test("concurrent confirms and webhooks for one payment: exactly one wins, all see the paid order")
    func raceHasOneWinner() async throws {
        let order = try await order(quantity: 2)
        gateway.add(GatewayPayment(impUID: "imp_1", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await checkout.confirm(order.id, impUID: "imp_1", by: buyer).status == .paid
                    }
                    let outcome = try await checkout.handleWebhook(id: "msg_\(index)", impUID: "imp_1", merchantUID: order.merchantUID)
                    switch outcome {
                    case .settled(.paid), .settled(.alreadyPaid): return true
                    default: return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 })
        #expect(try orders.payments(of: order.id).count == 1)
        #expect(orders.stock(of: product.id) == 1)
    }

    @Test("a forged amount fails the order, returns the stock and cancels the payment")
    func forged() async throws {
        let order = try await order()
        gateway.add(GatewayPayment(impUID: "imp_2", merchantUID: order.merchantUID, status: .paid, amount: Money(won: 1)))
        await #expect(throws: KeyCatError.self) { try await checkout.confirm(order.id, impUID: "imp_2", by: buyer) }
        #expect(try orders.find(order.id)?.status == .failed)
        #expect(orders.stock(of: product.id) == 3)
        #expect(gateway.payments.withLock { $0["imp_2"]?.status } == .cancelled)
        #expect(orders.auditEntries.contains { $0.action == "order.fail" })
    }

    @Test("the cart adds up to the cap and checkout from it names what ran out")
    func cartCheckout() async throws {
        let service = CartService(carts: carts, products: OneProduct(product: product), clock: clock)
        try await service.add(product.id, quantity: 90, by: buyer)
        let cart = try await service.add(product.id, quantity: 90, by: buyer)
        #expect(cart.lines.first?.quantity == 99 && cart.lines.first?.isAvailable == false)
        do {
            _ = try await checkout.checkout(CheckoutRequest(.cart), by: buyer)
            Issue.record("expected out of stock")
        } catch {
            #expect(error.code == .outOfStock && error.context["available"] == "3")
        }
    }
}
