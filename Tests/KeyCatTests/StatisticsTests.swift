import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The statistics are checked against a small history made through real checkout, payment,
/// refund and review, with the test clock moved across Korean calendar days.
@Suite("Sales statistics")
struct StatisticsTests {
    /// 2026-01-01T00:00Z is 09:00 on 1 January in Seoul; 15:30Z the same UTC day is 00:30 on 2
    /// January there.
    static let januaryFirstMorning = Date(timeIntervalSince1970: 1_767_225_600)

    struct History {
        var first: Order
        var second: Order
        var keyboard: Product
        var switches: Product
    }

    /// 1 Jan (Seoul): one keyboard paid (and delivered). 2 Jan 00:30 (Seoul, still 1 Jan in
    /// UTC): two switch units paid (and delivered), 10,000 won of the keyboard refunded. 4 Jan: an order left awaiting payment.
    /// Reviews: the switches 5 stars, the keyboard 4.
    static func makeHistory(_ shop: TestShop) async throws -> History {
        shop.clock.set(januaryFirstMorning)
        let keyboard = try await shop.product(price: 100_000)
        let switches = try await shop.product(price: 80_000)
        let buyer = try await shop.user(.buyer)
        let first = try await shop.receivedOrder(keyboard, by: buyer)
        shop.clock.set(januaryFirstMorning.addingTimeInterval(15.5 * 3600))
        let second = try await shop.receivedOrder(switches, quantity: 2, by: buyer)
        _ = try await shop.keycat.orders.refund(
            first.id, RefundRequest(amount: Money(won: 10_000), reason: "scratched case"), by: shop.operatorConsole)
        _ = try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "Smooth and quiet linears."), of: switches.id, by: buyer)
        _ = try await shop.keycat.reviews.write(ReviewForm(rating: 4, content: "Solid board, case scratched."), of: keyboard.id, by: buyer)
        shop.clock.set(januaryFirstMorning.addingTimeInterval(3 * 86_400))
        _ = try await shop.checkout(keyboard, by: buyer)
        return History(first: first, second: second, keyboard: keyboard, switches: switches)
    }

    @Test("sales and refunds fall on Seoul calendar days, every day of the window listed", arguments: TestStore.allCases)
    func perDay(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let history = try await Self.makeHistory(shop)
            let report = try await shop.keycat.statistics.report(days: 5, by: shop.operatorConsole)
            #expect(report.days.map(\.day.description) == ["2025-12-31", "2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"])
            #expect(report.days.map(\.ordersPaid) == [0, 1, 1, 0, 0])
            #expect(report.days.map(\.sales) == [.zero, history.first.amount, history.second.amount, .zero, .zero])
            #expect(report.days.map(\.refunds.won) == [0, 0, 10_000, 0, 0])
            #expect(report.days[2].net.won == history.second.amount.won - 10_000)
            #expect(report.totalSales.won == history.first.amount.won + history.second.amount.won)
            #expect(report.timeZone.identifier == "Asia/Seoul")
        }
    }

    @Test("orders are counted by their status now; top products by revenue and by rating", arguments: TestStore.allCases)
    func statusesAndTops(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let history = try await Self.makeHistory(shop)
            let report = try await shop.keycat.statistics.report(days: 30, by: shop.operatorConsole)
            let counts = Dictionary(uniqueKeysWithValues: report.ordersByStatus.map { ($0.status, $0.count) })
            #expect(counts[.partiallyRefunded] == 1 && counts[.delivered] == 1 && counts[.awaitingPayment] == 1)
            #expect(report.ordersByStatus.map(\.count).reduce(0, +) == 3)
            #expect(report.topByRevenue.map(\.productID) == [history.switches.id, history.keyboard.id])
            #expect(report.topByRevenue.map(\.revenue.won) == [160_000, 100_000])
            #expect(report.topByRevenue.map(\.unitsSold) == [2, 1])
            #expect(report.topByRating.map(\.productID) == [history.switches.id, history.keyboard.id])
            #expect(report.topByRating.map(\.average) == [5, 4])
        }
    }

    @Test("a shorter window leaves out what happened before it", arguments: TestStore.allCases)
    func window(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let history = try await Self.makeHistory(shop)
            let report = try await shop.keycat.statistics.report(days: 3, top: 1, by: shop.operatorConsole)
            #expect(report.firstDay.description == "2026-01-02")
            #expect(report.totalSales == history.second.amount)
            #expect(report.totalRefunds.won == 10_000)
            #expect(report.topByRevenue.map(\.productID) == [history.switches.id])
            // Orders created on 2 January (Seoul) or later: the switches and the unpaid one.
            #expect(report.ordersByStatus.map(\.count).reduce(0, +) == 2)
        }
    }

    @Test("only an admin reads statistics, for 1–365 days", arguments: TestStore.allCases)
    func rules(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let buyer = try await shop.user(.buyer)
            await expectError(.forbidden) { try await shop.keycat.statistics.report(by: buyer) }
            await expectError(.validation, field: "days") { try await shop.keycat.statistics.report(days: 0, by: shop.operatorConsole) }
            await expectError(.validation, field: "days") { try await shop.keycat.statistics.report(days: 366, by: shop.operatorConsole) }
            let empty = try await shop.keycat.statistics.report(days: 365, by: shop.operatorConsole)
            #expect(empty.days.count == 365 && empty.totalSales == .zero && empty.topByRevenue.isEmpty)
        }
    }

    @Test("a seller's share: their lines and fees, their refunds, their parcels' orders, their products", arguments: TestStore.allCases)
    func sellerShare(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            shop.clock.set(Self.januaryFirstMorning)
            let keycat = shop.keycat
            let (sellerA, sellerB, stranger) = (try await shop.user(.seller), try await shop.user(.seller), try await shop.user(.seller))
            let buyer = try await shop.user(.buyer)
            let board = try await keycat.catalog.create(TestShop.draft("Board", price: 100_000) { $0.stock = 5; $0.delivery.fee = Money(won: 3_000) },
                                                        for: sellerA.userID, by: sellerA)
            let caps = try await keycat.catalog.create(TestShop.draft("Caps", price: 20_000) { $0.stock = 5; $0.delivery.fee = Money(won: 2_500) },
                                                       for: sellerB.userID, by: sellerB)
            let order = try await keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 2),
            ])), by: buyer)
            let paid = try await keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            // The next day in Seoul, B gives back 5,000 of their parcel.
            shop.clock.set(Self.januaryFirstMorning.addingTimeInterval(86_400))
            let parcelB = try #require(paid.shipments.first { $0.sellerID == sellerB.userID })
            _ = try await keycat.orders.refundLines(of: parcelB.id, LineRefundRequest(amount: Money(won: 5_000), reason: "one cap cracked"),
                                                    by: sellerB)

            let a = try await keycat.statistics.report(days: 3, seller: sellerA.userID, by: shop.operatorConsole)
            #expect(a.seller == sellerA.userID)
            #expect(a.days.map(\.sales.won) == [0, 103_000, 0] && a.days.map(\.ordersPaid) == [0, 1, 0] && a.totalRefunds == .zero)
            #expect(a.topByRevenue.map(\.productID) == [board.id] && a.topByRevenue.map(\.revenue.won) == [100_000])
            #expect(a.ordersByStatus.first { $0.status == .partiallyRefunded }?.count == 1)
            let b = try await keycat.statistics.report(days: 3, seller: sellerB.userID, by: shop.operatorConsole)
            #expect(b.days.map(\.sales.won) == [0, 42_500, 0] && b.days.map(\.refunds.won) == [0, 0, 5_000])
            #expect(b.days.map(\.refundCount) == [0, 0, 1])
            #expect(b.topByRevenue.map(\.productID) == [caps.id] && b.topByRevenue.map(\.unitsSold) == [2])
            // The shares add up to the shop.
            let whole = try await keycat.statistics.report(days: 3, by: shop.operatorConsole)
            #expect(whole.totalSales.won == a.totalSales.won + b.totalSales.won && whole.totalRefunds.won == b.totalRefunds.won)
            let none = try await keycat.statistics.report(days: 3, seller: stranger.userID, by: shop.operatorConsole)
            #expect(none.totalSales == .zero && none.topByRevenue.isEmpty && none.ordersByStatus.allSatisfy { $0.count == 0 })
            await expectError(.validation, field: "seller") { try await keycat.statistics.report(seller: UserID(0), by: shop.operatorConsole) }
            await expectError(.forbidden) { try await keycat.statistics.report(seller: sellerA.userID, by: sellerA) }
        }
    }
}

