import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Every stored port over one database, beside checkout: what the stores must agree on.
struct PortsHarness: Sendable {
    let shop: CommerceHarness
    let reviews: ReviewService
    let bookmarks: BookmarkService
    let follows: FollowService
    let orders: OrderService
    let statistics: StatisticsService
    let audit: AuditService
    let auditLog: any AuditLog
    let idempotency: any IdempotencyStore
    let webhookEvents: any WebhookEventStore
    let registry: SQLBusinessRegistryHandle
    let secrets: @Sendable () async throws -> KeyCatSecrets
    /// `db check`'s invariant problems.
    let invariants: @Sendable () async throws -> [String]
    /// Runs one statement outside the repositories, to break what they keep.
    let tamper: @Sendable (String) async throws -> Void
    let admin = Principal(userID: UserID(3), role: .admin)

    static func make<Database: SQLDatabase>(_ database: Database, units: Int) async throws -> PortsHarness {
        let clock = TestClock()
        let (product, buyer) = try await CommerceHarness.stock(database, units: units, clock: clock)
        try await database.write { connection in
            try connection.run("""
                INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                VALUES ('admin@example.com', 'admin', '!', 'admin', 0, 0)
                """, [])
        }
        let shop = CommerceHarness.stored(database, product: product, buyer: buyer, clock: clock, gateway: FakeGateway())
        let cursors = HMACPageCursorCodec(key: [UInt8](repeating: 3, count: 32))
        let toggles = PerUserRateLimiter(limit: nil, clock: clock)
        let registry = SQLBusinessRegistry(database: database)
        return PortsHarness(
            shop: shop,
            reviews: ReviewService(reviews: SQLReviewRepository(database: database), products: shop.products,
                                   purchases: SQLPurchaseHistory(database: database), cursors: cursors, clock: clock),
            bookmarks: BookmarkService(bookmarks: SQLBookmarkRepository(database: database), limiter: toggles,
                                       cursors: cursors, clock: clock),
            follows: FollowService(follows: SQLFollowRepository(database: database), limiter: toggles,
                                   cursors: cursors, clock: clock),
            orders: OrderService(orders: shop.orders, gateway: shop.gateway, idempotency: SQLIdempotencyStore(database: database),
                                 cursors: cursors, clock: clock, fulfilment: SQLFulfilmentRepository(database: database)),
            statistics: StatisticsService(statistics: SQLSalesStatistics(database: database), clock: clock),
            audit: AuditService(log: SQLAuditLog(database: database), cursors: cursors),
            auditLog: SQLAuditLog(database: database),
            idempotency: SQLIdempotencyStore(database: database),
            webhookEvents: SQLWebhookEventStore(database: database),
            registry: SQLBusinessRegistryHandle(status: { try await registry.status(of: $0) },
                                                load: { try await registry.load($0, at: $1, audit: $2) }),
            secrets: { try await KeyCatSecrets.loadOrCreate(database) },
            invariants: { try await DatabaseHealth.invariantProblems(database) },
            tamper: { sql in _ = try await database.write { try $0.run(sql, []) } })
    }

    /// A paid order of `quantity` units, confirmed through the gateway.
    func paidOrder(quantity: Int = 1, impUID: String) async throws -> Order {
        let order = try await shop.order(quantity: quantity)
        shop.gateway.add(GatewayPayment(impUID: impUID, merchantUID: order.merchantUID, status: .paid, amount: order.amount))
        return try await shop.checkout.confirm(order.id, impUID: impUID, by: shop.buyer)
    }

    /// A paid order, shipped and delivered, its receipt confirmed by the buyer: one its buyer
    /// may review.
    func receivedOrder(quantity: Int = 1, impUID: String) async throws -> Order {
        let order = try await paidOrder(quantity: quantity, impUID: impUID)
        _ = try await orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: "123456789012", by: admin)
        var received = try await orders.deliver(order.id, by: admin)
        for shipment in received.shipments { received = try await orders.confirmReceipt(of: shipment.id, by: shop.buyer) }
        return received
    }
}

/// The business registry's two operations, without its store in the type.
struct SQLBusinessRegistryHandle: Sendable {
    let status: @Sendable (BusinessRegistrationNumber) async throws -> BusinessStatus
    let load: @Sendable ([BusinessRegistryEntry], Date, AuditEntry) async throws -> Int
}

/// Runs `body` with every stored port over `backend` (SQLite or Postgres).
func withPorts(_ backend: Backend, units: Int = 5, _ body: (PortsHarness) async throws -> Void) async throws {
    switch backend {
    case .inMemory:
        Issue.record("the stored ports have no in-memory twin")
    case .sqlite:
        try await withTestDatabase { try await body(try PortsHarness.make($0, units: units)) }
    case .postgres:
        try await withPostgresTestDatabase { try await body(try PortsHarness.make($0, units: units)) }
    }
}
