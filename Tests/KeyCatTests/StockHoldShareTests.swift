import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// Unpaid orders of all buyers together hold at most half a product's unsold units, leaving at
/// least 2 on the shelf; lines past that are sold on payment (issue #41: one client address
/// signing up 20 accounts an hour held 154 of 178 demo products, renewing every 15 minutes).
@Suite("Stock holds: the share all buyers may hold, and lines sold on payment, on every store")
struct StockHoldShareTests {
    /// The default policy without its checkout rate: an attacker as strong as the caps allow.
    static func unrated(_ configuration: inout KeyCat.Configuration) {
        configuration.stockHolds = try! StockHoldPolicy(checkoutRate: nil)
    }

    /// The units the policy leaves on the shelf of a product with `stock` unsold units.
    static func leftOnShelf(_ stock: Int) -> Int { max(stock - stock / 2, min(stock, 2)) }

    @Test("one address signing up every account it may and holding all each may leaves half of every stock, at least 2, to a payer",
          arguments: TestStore.allCases)
    func signUpAttack(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.unrated) { shop in
            let stocks = [1, 2, 3, 5, 10, 38]
            var products: [Product] = []
            for stock in stocks { products.append(try await shop.product(stock: stock, price: 10_000)) }
            var accounts: [Principal] = []
            while true {
                do {
                    let user = try await shop.keycat.accounts.signUp(
                        SignUpForm(email: "hoarder\(accounts.count)@example.com", password: "keycat123", nick: "hoarder\(accounts.count)"),
                        client: "203.0.113.7")
                    accounts.append(Principal(userID: user.id, role: user.role))
                } catch let error as KeyCatError where error.code == .rateLimited {
                    break
                }
            }
            #expect(accounts.count == SignUpThrottlePolicy.standard.attemptsPerClient)
            // Each account holds, product by product, the most it can: a line that comes back
            // sold on payment holds nothing, so it is cancelled and a smaller one tried.
            for account in accounts {
                attempts: for product in products {
                    var quantity = min(10, try await shop.stock(of: product.id))
                    while quantity > 0 {
                        let order: Order
                        do {
                            order = try await shop.checkout(product, quantity: quantity, by: account)
                        } catch let error as KeyCatError where error.code == .reservationLimit {
                            break attempts
                        }
                        if order.lines.allSatisfy(\.stockTaken) { break }
                        _ = try await shop.keycat.orders.cancel(order.id, reason: "trying less", by: account)
                        quantity -= 1
                    }
                }
            }
            for (product, stock) in zip(products, stocks) {
                let left = try await shop.stock(of: product.id)
                #expect(left == Self.leftOnShelf(stock), "\(stock) units: \(left) left on the shelf")
            }
            // A fresh buyer buys what was left, by paying first.
            let buyer = try await shop.user(.buyer)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.items(zip(products, stocks).map {
                CheckoutItem(productID: $0.id, quantity: Self.leftOnShelf($1))
            })), by: buyer)
            #expect(order.lines.allSatisfy { !$0.stockTaken }, "every product is held up to its share")
            let payment = try shop.pay(order)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            #expect(paid.status == .paid && paid.lines.allSatisfy(\.stockTaken))
            for product in products { await #expect(try shop.stock(of: product.id) == 0) }
            try await shop.expectHealthy()
        }
    }

    @Test("a line sold on payment takes no stock at checkout and takes it when paid", arguments: TestStore.allCases)
    func soldOnPayment(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 2)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            #expect(order.lines.map(\.stockTaken) == [false])
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).lines.map(\.stockTaken) == [false])
            await #expect(try shop.stock(of: product.id) == 2)
            let payment = try shop.pay(order)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            #expect(paid.status == .paid && paid.lines.map(\.stockTaken) == [true])
            await #expect(try shop.stock(of: product.id) == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a payment for a line whose product sold out meanwhile fails the order and is cancelled", arguments: TestStore.allCases)
    func soldOutBeforePayment(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 2)
            let first = try await shop.user(.buyer)
            let second = try await shop.user(.buyer)
            let late = try await shop.checkout(product, quantity: 2, by: second)
            _ = try await shop.paidOrder(product, quantity: 2, by: first)
            let payment = try shop.pay(late)
            let refused = await expectFailure(.outOfStock) {
                try await shop.keycat.checkout.confirm(late.id, impUID: payment.impUID, by: second)
            }
            #expect(refused?.context["product_id"] == "\(product.id)")
            let failed = try await shop.keycat.orders.order(late.id, by: second)
            #expect(failed.status == .failed)
            #expect(shop.simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            await #expect(try shop.keycat.orders.payments(of: late.id, by: second).map(\.status) == [.voided])
            await #expect(try shop.stock(of: product.id) == 0)
            try await shop.expectHealthy()
        }
    }

    @Test("an unpaid order sold on payment gives nothing back when it expires", arguments: TestStore.allCases)
    func expiresWithNothingToReturn(store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let scarce = try await shop.product(stock: 1)
            let plenty = try await shop.product(stock: 20)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: scarce.id, quantity: 1), CheckoutItem(productID: plenty.id, quantity: 3),
            ])), by: buyer)
            #expect(Dictionary(uniqueKeysWithValues: order.lines.map { ($0.productID, $0.stockTaken) })
                == [scarce.id: false, plenty.id: true])
            await #expect(try shop.stock(of: plenty.id) == 17)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + CheckoutService.latePaymentGrace + 1)
            _ = try await shop.keycat.checkout.reconcile()
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .expired)
            await #expect(try shop.stock(of: scarce.id) == 1)
            await #expect(try shop.stock(of: plenty.id) == 20)
            try await shop.expectHealthy()
        }
    }

    /// Checkout runs `READ COMMITTED` on Postgres: the products' rows are locked before the
    /// holds are counted, so checkouts of many buyers racing still count each other.
    @Test("twelve buyers checking out one 10-unit product at once: exactly 5 hold a unit, the rest buy on payment",
          arguments: TestStore.allCases)
    func racingBuyers(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.unrated) { shop in
            let product = try await shop.product(stock: 10)
            var buyers: [Principal] = []
            for _ in 0..<12 { buyers.append(try await shop.user(.buyer)) }
            let held = try await withThrowingTaskGroup(of: Bool.self) { group in
                for buyer in buyers {
                    group.addTask { try await shop.checkout(product, by: buyer).lines[0].stockTaken }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(held.filter { $0 }.count == 5)
            await #expect(try shop.stock(of: product.id) == 5)
            try await shop.expectHealthy()
        }
    }

    @Test("a lapsed hold counts until it is released; a checkout over the share releases it and holds again",
          arguments: TestStore.allCases)
    func lapsedHoldsMakeRoom(store: TestStore) async throws {
        try await TestShop.with(store, configure: Self.unrated) { shop in
            let product = try await shop.product(stock: 4)
            let hoarder = try await shop.user(.buyer)
            let lapsing = try await shop.checkout(product, quantity: 2, by: hoarder)
            #expect(lapsing.lines[0].stockTaken)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + CheckoutService.latePaymentGrace + 1)
            let order = try await shop.checkout(product, quantity: 2, by: try shop.user(.buyer))
            #expect(order.lines[0].stockTaken)
            await #expect(try shop.keycat.orders.order(lapsing.id, by: hoarder).status == .expired)
            await #expect(try shop.stock(of: product.id) == 2)
            try await shop.expectHealthy()
        }
    }
}

/// The holding rule as arithmetic: ``StockHoldLimits/mayHold(_:onShelf:held:heldByBuyer:)``.
@Suite("Stock hold policy")
struct StockHoldPolicyTests {
    @Test("what the standard policy lets a line hold", arguments: [
        // quantity, on the shelf, held by all, held by the buyer, may hold
        (1, 1, 0, 0, false), (1, 2, 0, 0, false), (1, 3, 0, 0, true), (2, 3, 0, 0, false),
        (1, 2, 1, 0, false), (2, 4, 0, 0, true), (1, 3, 1, 0, true), (1, 2, 2, 0, false),
        (5, 10, 0, 0, true), (6, 10, 0, 0, false), (1, 5, 5, 0, false), (10, 38, 9, 0, true),
        (10, 28, 10, 0, false), (1, 30, 0, 10, false), (10, 30, 0, 0, true), (11, 30, 0, 0, false),
    ] as [(Int, Int, Int, Int, Bool)])
    func standard(quantity: Int, onShelf: Int, held: Int, heldByBuyer: Int, expected: Bool) {
        let limits = StockHoldPolicy.standard.limits
        #expect(limits.mayHold(quantity, onShelf: onShelf, held: held, heldByBuyer: heldByBuyer) == expected)
    }

    @Test("a share of 100 % and no shelf minimum hold all a buyer may; 0 % holds nothing")
    func extremes() throws {
        let all = try StockHoldPolicy(maximumHeldPercent: 100, minimumOnShelf: 0).limits
        #expect(all.mayHold(1, onShelf: 1, held: 0, heldByBuyer: 0))
        #expect(all.mayHold(10, onShelf: 10, held: 90, heldByBuyer: 0))
        #expect(!all.mayHold(2, onShelf: 1, held: 0, heldByBuyer: 0))
        let none = try StockHoldPolicy(maximumHeldPercent: 0, minimumOnShelf: 0).limits
        #expect(!none.mayHold(1, onShelf: 100, held: 0, heldByBuyer: 0))
    }

    @Test("a share outside 0–100 % or a negative shelf is refused")
    func validation() async {
        await expectFailure(.validation) { try StockHoldPolicy(maximumHeldPercent: 101) }
        await expectFailure(.validation) { try StockHoldPolicy(maximumHeldPercent: -1) }
        await expectFailure(.validation) { try StockHoldPolicy(minimumOnShelf: -1) }
    }
}
