import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
@testable import KeyCatData

/// Checkout, orders and the cart over one store, with a fake gateway, a test clock and one
/// listing of `stock` units: the same use cases whichever store holds the rows.
struct CommerceHarness: Sendable {
    let clock: TestClock
    let gateway: FakeGateway
    let orders: any OrderRepository
    let carts: any CartRepository
    let products: any ProductRepository
    let checkout: CheckoutService
    let product: Product
    let buyer: Principal
    /// The listing's stock as the store holds it now.
    let stock: @Sendable () async throws -> Int

    /// A checkout over `database`'s repositories: what a second server on the same database sees.
    static func stored<Database: SQLDatabase>(
        _ database: Database, product: Product, buyer: Principal, clock: TestClock, gateway: FakeGateway
    ) -> CommerceHarness {
        let products = SQLProductRepository(database: database)
        let carts = SQLCartRepository(database: database)
        let orders = SQLOrderRepository(database: database)
        let checkout = CheckoutService(
            orders: orders, carts: carts, products: products, gateway: gateway,
            webhookEvents: SQLWebhookEventStore(database: database), idempotency: SQLIdempotencyStore(database: database),
            clock: clock, auditLog: SQLAuditLog(database: database))
        let id = product.id
        return CommerceHarness(
            clock: clock, gateway: gateway, orders: orders, carts: carts, products: products, checkout: checkout,
            product: product, buyer: buyer, stock: { try await products.find(id)?.stock ?? -1 })
    }

    /// A seller (user 1), a buyer (user 2) and one listing with `stock` units in `database`.
    static func stock<Database: SQLDatabase>(_ database: Database, units: Int, clock: TestClock) async throws -> (Product, Principal) {
        try await database.write { connection in
            for (email, role) in [("seller@example.com", "seller"), ("buyer@example.com", "buyer")] {
                try connection.run("""
                    INSERT INTO users (email, nick, password_hash, role, created_at, updated_at) VALUES (?, ?, '!', ?, 0, 0)
                    """, [.text(email), .text(role), .text(role)])
            }
        }
        let product = try await SQLProductRepository(database: database).insert(
            draft(units), sellerID: UserID(1), images: [], at: clock.now(), audit: nil)
        return (product, Principal(userID: UserID(2), role: .buyer))
    }

    static func draft(_ units: Int) -> ProductDraft {
        ProductDraft(
            kind: .commercial, category: .switch, title: "Gateron Oil King", content: "",
            pricing: Pricing(regularPrice: Money(won: 700), salePrice: Money(won: 600)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .standard), stock: units, spec: KeyboardSpec())
    }

    /// Places an order of `quantity` units through checkout.
    func order(quantity: Int = 1) async throws -> Order {
        try await checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: quantity)])), by: buyer)
    }
}

/// Runs `body` with checkout over `backend`, the listing holding `units`.
func withCommerce(_ backend: Backend, units: Int = 3, _ body: (CommerceHarness) async throws -> Void) async throws {
    let clock = TestClock()
    let gateway = FakeGateway()
    switch backend {
    case .inMemory:
        let carts = InMemoryCartRepository()
        let orders = InMemoryOrderRepository(carts: carts)
        let product = Product(
            id: ProductID(1), sellerID: UserID(1), kind: .commercial, category: .switch, title: "Gateron Oil King",
            content: "", pricing: Pricing(regularPrice: Money(won: 700), salePrice: Money(won: 600)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .standard), stock: units, images: [],
            spec: KeyboardSpec(), createdAt: clock.now(), updatedAt: clock.now())
        orders.setStock(units, of: product.id)
        let products = OneProduct(product: product)
        let checkout = CheckoutService(
            orders: orders, carts: carts, products: products, gateway: gateway,
            webhookEvents: InMemoryWebhookEventStore(), idempotency: InMemoryIdempotencyStore(), clock: clock)
        try await body(CommerceHarness(
            clock: clock, gateway: gateway, orders: orders, carts: carts, products: products, checkout: checkout,
            product: product, buyer: Principal(userID: UserID(2), role: .buyer), stock: { orders.stock(of: product.id) }))
    case .sqlite:
        try await withTestDatabase { database in
            let (product, buyer) = try await CommerceHarness.stock(database, units: units, clock: clock)
            try await body(.stored(database, product: product, buyer: buyer, clock: clock, gateway: gateway))
        }
    case .postgres:
        try await withPostgresTestDatabase { database in
            let (product, buyer) = try await CommerceHarness.stock(database, units: units, clock: clock)
            try await body(.stored(database, product: product, buyer: buyer, clock: clock, gateway: gateway))
        }
    }
}
