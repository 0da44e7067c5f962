import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Commission on delivery fees (issue #41, item 5): a price moved into the delivery fee pays the
/// same commission, and the close's SQL stamp of each entry agrees with the figures it adds up.
@Suite("Commission on delivery fees", .serialized)
struct DeliveryFeeCommissionTests {
    /// A keyboard listing of `seller` at `price` with a delivery fee of `fee`.
    static func listing(_ shop: TestShop, _ seller: Principal, price: Int64, fee: Int64) async throws -> Product {
        try await shop.keycat.catalog.create(TestShop.draft("Board \(price)+\(fee)", price: price) { $0.delivery.fee = Money(won: fee) },
                                             for: seller.userID, by: seller)
    }

    /// Closes the month the test clock starts in, a month and more later.
    static func closeFirstMonth(_ shop: TestShop) async throws -> [Settlement] {
        let period = SettlementPeriod(containing: shop.clock.now())
        shop.clock.advance(by: 40 * 86_400)
        return try await shop.keycat.settlements.close(period, by: shop.operatorConsole)
    }

    @Test("₩60,000 + a ₩40,000 fee pays what ₩97,000 + a ₩3,000 fee does: the fee is charged the default rate", arguments: TestStore.allCases)
    func movingPriceIntoTheFeeGainsNothing(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (feeHeavy, plain) = (try await shop.user(.seller), try await shop.user(.seller))
            let buyer = try await shop.user(.buyer)
            _ = try await shop.receivedOrder(try await Self.listing(shop, feeHeavy, price: 60_000, fee: 40_000), by: buyer)
            _ = try await shop.receivedOrder(try await Self.listing(shop, plain, price: 97_000, fee: 3_000), by: buyer)

            // What each seller is shown before the close (the tally) is what the close makes (its SQL).
            let upcoming = try await shop.keycat.settlements.upcoming(by: feeHeavy)
            #expect(upcoming.tally.commission == 10_000)
            #expect(upcoming.entries.first { $0.line == nil }?.commission == Money(won: 4_000))

            let settlements = try await Self.closeFirstMonth(shop)
            let heavy = try #require(settlements.first { $0.sellerID == feeHeavy.userID })
            let other = try #require(settlements.first { $0.sellerID == plain.userID })
            // 10 % of 60,000 and of 40,000; 10 % of 97,000 and of 3,000.
            #expect(heavy.commission == Money(won: 10_000) && heavy.payout == Money(won: 90_000))
            #expect(other.commission == Money(won: 10_000) && other.payout == Money(won: 90_000))
            let (_, entries) = try await shop.keycat.settlements.settlement(heavy.id, by: feeHeavy)
            #expect(entries.map(\.commission) == [Money(won: 6_000), Money(won: 4_000)])
            // `db check`: each settlement's commission is the sum its stamped entries carry.
            try await shop.expectHealthy()
        }
    }

    @Test("a shop sets the fee rate apart from the item rate, and a refunded fee gives its commission back", arguments: TestStore.allCases)
    func feeRateOfItsOwn(_ store: TestStore) async throws {
        try await TestShop.with(store, configure: {
            $0.commission = CommissionPolicy(defaultRate: 1_000, deliveryFeeRate: 250)
        }) { shop in
            let (seller, buyer) = (try await shop.user(.seller), try await shop.user(.buyer))
            let kept = try await shop.receivedOrder(try await Self.listing(shop, seller, price: 50_000, fee: 4_000), by: buyer)
            let returned = try await shop.receivedOrder(try await Self.listing(shop, seller, price: 20_000, fee: 2_000), by: buyer)
            _ = try await shop.keycat.orders.refund(returned.id, RefundRequest(reason: "returned whole"), by: shop.operatorConsole)
            #expect(kept.deliveryTotal == Money(won: 4_000))

            let settlement = try #require(try await Self.closeFirstMonth(shop).first)
            // 5,000 + 2.5 % of 4,000 = 100 for the kept order; the returned one nets zero.
            #expect(settlement.commission == Money(won: 5_100))
            #expect(settlement.payout == Money(won: 50_000 + 4_000 - 5_100))
            let (_, entries) = try await shop.keycat.settlements.settlement(settlement.id, by: seller)
            let fees = entries.filter { $0.line == nil }
            #expect(fees.map(\.kind) == [.sale, .sale, .refund] && fees.map(\.commission) == [100, 50, 50].map { Money(won: $0) })
            try await shop.expectHealthy()
        }
    }

    @Test("a line pays its category's commission as it was at checkout: moving the listing before the payment lands gains nothing",
          arguments: TestStore.allCases)
    func categoryFixedAtCheckout(_ store: TestStore) async throws {
        try await TestShop.with(store, configure: {
            $0.commission = CommissionPolicy(defaultRate: 1_000, rates: [.switch: 200], deliveryFeeRate: 1_000)
        }) { shop in
            let (seller, buyer) = (try await shop.user(.seller), try await shop.user(.buyer))
            let board = try await Self.listing(shop, seller, price: 100_000, fee: 0)
            let order = try await shop.checkout(board, by: buyer)
            // Bought as a keyboard; the seller moves it among the switches while the buyer pays.
            var changes = ProductChanges(expectedVersion: nil)
            changes.category = .switch
            _ = try await shop.keycat.catalog.update(board.id, changes, by: seller)
            let payment = try shop.pay(order)
            _ = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            _ = try await shop.keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: parcelNumber(order.id.rawValue, prefix: "5532"),
                                                 by: shop.operatorConsole)
            _ = try await shop.keycat.orders.deliver(order.id, by: shop.operatorConsole)
            _ = try await shop.keycat.orders.confirmReceipt(of: order.shipments[0].id, by: buyer)
            // A line bought as a switch after the move pays the switch rate.
            _ = try await shop.receivedOrder(try await shop.keycat.catalog.product(board.id), by: buyer)

            let settlement = try #require(try await Self.closeFirstMonth(shop).first)
            let (_, entries) = try await shop.keycat.settlements.settlement(settlement.id, by: seller)
            #expect(entries.map(\.commission) == [Money(won: 10_000), Money(won: 2_000)], "\(entries)")
            #expect(settlement.commission == Money(won: 12_000))
            try await shop.expectHealthy()
        }
    }

    @Test("the audit of a close names the fee rate, and a fee rate outside 0–10000 bp is refused")
    func policyRules() async throws {
        let policy = CommissionPolicy(defaultRate: 1_200, rates: [.switch: 800])
        #expect(policy.deliveryFeeRate == 1_200 && policy.rate(for: nil) == 1_200 && policy.rate(for: .switch) == 800)
        #expect(CommissionPolicy.standard.commission(on: 3_000, category: nil) == 300)
        #expect(policy.summary == "commission 1200 bp, switch 800 bp, delivery fees 1200 bp")
        #expect(throws: KeyCatError.self) { try CommissionPolicy(defaultRate: 1_000, deliveryFeeRate: 10_001).validated() }
        try await TestShop.with { shop in
            let period = SettlementPeriod(containing: shop.clock.now())
            shop.clock.advance(by: 40 * 86_400)
            _ = try await shop.keycat.settlements.close(period, by: shop.operatorConsole)
            let audit = try await shop.keycat.auditLog.recent(limit: 10).first { $0.action == "settlement.close" }
            #expect(audit?.detail.hasPrefix("commission 1000 bp, delivery fees 1000 bp") == true, "\(String(describing: audit))")
        }
    }
}
