import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Checkout, payment confirmation, webhooks and the cart, run over every store: a port behaves the
/// same wherever its rows live.
@Suite("Checkout on every store")
struct CheckoutStoreTests {
    @Test("concurrent confirms and webhooks for one payment: exactly one wins, all see the paid order",
          arguments: Backend.allCases)
    func raceHasOneWinner(_ backend: Backend) async throws {
        try await withCommerce(backend) { shop in
            let order = try await shop.order(quantity: 2)
            shop.gateway.add(GatewayPayment(impUID: "imp_1", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            return try await shop.checkout.confirm(order.id, impUID: "imp_1", by: shop.buyer).status == .paid
                        }
                        let outcome = try await shop.checkout.handleWebhook(
                            id: "msg_\(index)", impUID: "imp_1", merchantUID: order.merchantUID)
                        switch outcome {
                        case .settled(.paid), .settled(.alreadyPaid): return true
                        default: return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0 })
            await #expect(try shop.orders.payments(of: order.id).count == 1)
            await #expect(try shop.orders.find(order.id)?.status == .paid)
            await #expect(try shop.stock() == 1)
        }
    }

    @Test("a forged amount fails the order, returns the stock and cancels the payment", arguments: Backend.allCases)
    func forged(_ backend: Backend) async throws {
        try await withCommerce(backend) { shop in
            let order = try await shop.order()
            await #expect(try shop.stock() == 2)
            shop.gateway.add(GatewayPayment(impUID: "imp_2", merchantUID: order.merchantUID, status: .paid, amount: Money(won: 1)))
            await #expect(throws: KeyCatError.self) { try await shop.checkout.confirm(order.id, impUID: "imp_2", by: shop.buyer) }
            await #expect(try shop.orders.find(order.id)?.status == .failed)
            await #expect(try shop.stock() == 3)
            #expect(shop.gateway.payments.withLock { $0["imp_2"]?.status } == .cancelled)
        }
    }

    @Test("the cart adds up to the cap and checkout from it names what ran out", arguments: Backend.allCases)
    func cartCheckout(_ backend: Backend) async throws {
        try await withCommerce(backend) { shop in
            let service = CartService(carts: shop.carts, products: shop.products, clock: shop.clock)
            try await service.add(shop.product.id, quantity: 90, by: shop.buyer)
            let cart = try await service.add(shop.product.id, quantity: 90, by: shop.buyer)
            #expect(cart.lines.first?.quantity == 99 && cart.lines.first?.isAvailable == false)
            do {
                _ = try await shop.checkout.checkout(CheckoutRequest(.cart), by: shop.buyer)
                Issue.record("expected out of stock")
            } catch let error as KeyCatError {
                #expect(error.code == .outOfStock && error.context["available"] == "3")
            }
            await #expect(try shop.stock() == 3)
        }
    }

    @Test("buyers racing for the last units take exactly the stock; the rest are out of stock", arguments: Backend.allCases)
    func lastUnits(_ backend: Backend) async throws {
        try await withCommerce(backend, units: 3) { shop in
            let outcomes = await Self.race(12, [shop])
            #expect(outcomes.sold == 3)
            #expect(outcomes.outOfStock == 9)
            #expect(outcomes.other.isEmpty)
            let left = try await shop.stock()
            #expect(left == 0)
        }
    }

    @Test("two servers on one Postgres database racing for the last units sell exactly the stock",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func twoServers() async throws {
        try await withTwoPostgresServers { first, second in
            let clock = TestClock()
            let (product, buyer) = try await CommerceHarness.stock(first, units: 5, clock: clock)
            let servers = [first, second].map {
                CommerceHarness.stored($0, product: product, buyer: buyer, clock: clock, gateway: FakeGateway())
            }
            let outcomes = await Self.race(16, servers)
            #expect(outcomes.sold == 5)
            #expect(outcomes.outOfStock == 11)
            #expect(outcomes.other.isEmpty)
            await #expect(try servers[1].stock() == 0)
            let taken = try await first.read { connection in
                try connection.queryOne("SELECT coalesce(sum(quantity), 0) FROM order_lines", []) { $0.int(0) }
            }
            #expect(taken == 5)
        }
    }

    @Test("the repositories' writes on Postgres are serializable, as SQLite's single writer is",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func serializableWrites() async throws {
        func isolation(_ database: some SQLDatabase) async throws -> String? {
            try await database.write { try $0.queryOne("SHOW transaction_isolation", []) { $0.string(0) } }
        }
        let level = try await withPostgresTestDatabase { try await isolation($0) }
        #expect(level == "serializable")
    }

    @Test("buyers changing their carts at once never fail for one another, with no run again allowed; one buyer's adds keep the line cap",
          .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
    func cartWritesOfManyBuyers() async throws {
        // One attempt only: a write that lost to another buyer's (a serialization failure) would
        // throw here instead of quietly running again.
        try await withPostgresDatabase(configure: { $0.maximumTransactionAttempts = 1 }) { database in
            try KeyCatSchema.migrator().migrate(database, now: Date(timeIntervalSince1970: 1_767_225_600))
            let clock = TestClock()
            let (product, _) = try await CommerceHarness.stock(database, units: 5, clock: clock)
            let buyers = try await database.write { connection in
                try (0..<16).map { number in
                    try #require(try connection.queryOne("""
                        INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                        VALUES (?, ?, '!', 'buyer', 0, 0) RETURNING id
                        """, [.text("cart\(number)@example.com"), .text("cart\(number)")]) { UserID($0.int64(0)) })
                }
            }
            let carts = SQLCartRepository(database: database)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for buyer in buyers {
                    group.addTask {
                        for round in 0..<6 {
                            _ = try await carts.set(product.id, quantity: 1 + round % 3, for: buyer, maximumLines: 50, at: clock.now())
                        }
                    }
                }
                try await group.waitForAll()
            }
            for buyer in buyers { #expect(try await carts.entries(of: buyer).map(\.quantity) == [3]) }

            // One buyer adding several new lines at once: the count of lines takes turns.
            var newProducts: [Product] = []
            for _ in 0..<4 {
                newProducts.append(try await SQLProductRepository(database: database).insert(
                    CommerceHarness.draft(5), sellerID: UserID(1), images: [], at: clock.now(), audit: nil))
            }
            let buyer = buyers[0]
            let added = await withTaskGroup(of: Bool.self) { group in
                for item in newProducts {
                    group.addTask { (try? await carts.add(item.id, quantity: 1, cap: 99, for: buyer, maximumLines: 3, at: clock.now())) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(added == 2, "the buyer had one line and room for two more")
            #expect(try await carts.entries(of: buyer).count == 3)
        }
    }

    /// `buyers` checkouts of one unit each, spread over `servers`, all at once.
    static func race(_ buyers: Int, _ servers: [CommerceHarness]) async -> (sold: Int, outOfStock: Int, other: [String]) {
        await withTaskGroup(of: Result<Order, KeyCatError>.self) { group in
            for index in 0..<buyers {
                let shop = servers[index % servers.count]
                group.addTask {
                    do {
                        return .success(try await shop.order())
                    } catch let error as KeyCatError {
                        return .failure(error)
                    } catch {
                        return .failure(KeyCatError(.internalError, "\(error)"))
                    }
                }
            }
            var tally = (sold: 0, outOfStock: 0, other: [String]())
            for await outcome in group {
                switch outcome {
                case .success: tally.sold += 1
                case .failure(let error) where error.code == .outOfStock: tally.outOfStock += 1
                case .failure(let error): tally.other.append("\(error)")
                }
            }
            return tally
        }
    }
}
