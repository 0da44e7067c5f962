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

    @Test("a new order is answered as the store then reads it (two sellers' parcels, lines, address, times to the millisecond), and its standing too",
          arguments: Backend.stored)
    func createAnswersWhatFindReads(_ backend: Backend) async throws {
        switch backend {
        case .sqlite: try await withTestDatabase { try await Self.createAnswersWhatFindReads($0) }
        case .postgres: try await withPostgresTestDatabase { try await Self.createAnswersWhatFindReads($0) }
        case .inMemory: Issue.record("the in-memory store keeps what it was given")
        }
    }

    /// Creates an order of two sellers' products, a line each of the first seller around one of
    /// the second's, at a time between two milliseconds, and compares the answer with a read.
    static func createAnswersWhatFindReads<Database: SQLDatabase>(_ database: Database) async throws {
        let clock = TestClock()
        let (first, buyer) = try await CommerceHarness.stock(database, units: 5, clock: clock)
        let secondSeller = try await database.write { connection in
            try #require(try connection.queryOne("""
                INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
                VALUES ('second@example.com', 'second', '!', 'seller', 0, 0) RETURNING id
                """, []) { UserID($0.int64(0)) })
        }
        let products = SQLProductRepository(database: database)
        let second = try await products.insert(CommerceHarness.draft(4), sellerID: secondSeller, images: [], at: clock.now(), audit: nil)
        let third = try await products.insert(CommerceHarness.draft(6), sellerID: first.sellerID, images: [], at: clock.now(), audit: nil)
        func line(_ product: Product, _ quantity: Int, fee: Int64) -> OrderLine {
            OrderLine(productID: product.id, title: product.title, unitPrice: Money(won: 600), quantity: quantity,
                      deliveryFee: Money(won: fee), sellerID: product.sellerID)
        }
        let lines = [line(first, 2, fee: 3_000), line(second, 1, fee: 2_500), line(third, 3, fee: 4_000)]
        let now = Date(timeIntervalSince1970: 1_790_000_000.123_456)
        var order = NewOrder(
            merchantUID: "kc_answer", buyerID: buyer.userID, lines: lines, itemsTotal: Money(won: 3_600),
            deliveryTotal: Money(won: 6_500), amount: Money(won: 10_100), expiresAt: now.addingTimeInterval(900.000_7),
            requestKey: "key-1")
        order.shippingAddress = DeliveryAddress(
            recipient: "Kim Minji", phone: "010-1234-5678", postcode: "04524", roadAddress: "110 Sejong-daero, Jung-gu",
            detail: "Apt 1203", request: "Leave at the door")
        let orders = SQLOrderRepository(database: database)
        let created = try await orders.create(order, at: now)
        let read = try #require(try await orders.find(created.id))
        #expect(created == read)
        #expect(created.shipments.map(\.sellerID) == [first.sellerID, secondSeller])
        #expect(created.shipments.map(\.lines) == [[0, 2], [1]])
        #expect(created.shipments.map(\.deliveryFee) == [Money(won: 4_000), Money(won: 2_500)])
        #expect(created.createdAt == Date(millisecondsSince1970: 1_790_000_000_123))
        #expect(created.shippingAddress == order.shippingAddress && created.status == .awaitingPayment)
        // The order's standing, read from its own row, is the whole order's.
        await #expect(try orders.standing(of: created.id) == OrderStanding(read))
        await #expect(try orders.standing(of: OrderID(created.id.rawValue + 1)) == nil)
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
