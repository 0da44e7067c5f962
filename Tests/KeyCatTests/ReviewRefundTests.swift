import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// A review stays verified: a line refunded by parts of its value — an operator's refund by
/// amount, a seller's compensation — half its price or more no longer supports a review, as a
/// line refund does not.
@Suite("Reviews after parts of a line's value are refunded")
struct ReviewRefundTests {
    @Test("half a line refunded by amount removes the review and its rating; less keeps it", arguments: TestStore.allCases)
    func halfALine(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop async throws in
            let product = try await shop.product(stock: 5, price: 100_000)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.receivedOrder(product, by: buyer)
            let review = try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "완벽한 키보드입니다, 추천!"), of: product.id, by: buyer)
            // 49,999 of the 100,000 line: the buyer still holds most of what they paid for it.
            _ = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 49_999), reason: "작은 흠집"),
                                                   by: shop.operatorConsole)
            await #expect(try shop.keycat.reviews.review(review.id).rating == 5)
            // One won more is half the line: the review goes, with its rating, audited.
            _ = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1), reason: "추가 보상"),
                                                   by: shop.operatorConsole)
            await expectError(.notFound) { try await shop.keycat.reviews.review(review.id) }
            let rated = try await shop.keycat.catalog.product(product.id)
            #expect(rated.ratingCount == 0 && rated.ratingSum == 0)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "review.remove"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["review:\(review.id)"])
            // And no new review stands on the line.
            await expectError(.forbidden) {
                try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "다시 써 봅니다, 최고!"), of: product.id, by: buyer)
            }
            try await shop.expectHealthy()
        }
    }

    @Test("a ₩1-net order keeps no review: an operator's compensation of all but one won", arguments: TestStore.allCases)
    func oneWonNet(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop async throws in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(price: 100_000) { $0.stock = 5 }, for: seller.userID, by: seller)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.receivedOrder(product, by: buyer)
            let review = try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "완벽한 키보드입니다, 추천!"), of: product.id, by: buyer)
            let parcel = try #require(order.shipments.first)
            let compensated = try await shop.keycat.orders.refundLines(
                of: parcel.id, LineRefundRequest(amount: Money(won: order.amount.won - 1), reason: "파손, 보상"), by: shop.operatorConsole)
            #expect(compensated.refundableAmount == Money(won: 1) && compensated.lines.allSatisfy { $0.refundedAt == nil })
            await expectError(.notFound) { try await shop.keycat.reviews.review(review.id) }
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 0)
            try await shop.expectHealthy()
        }
    }
}
