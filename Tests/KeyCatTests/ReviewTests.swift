import Foundation
import KeyCat
import KeyCatData
import KeyCatTestSupport
import Testing

@Suite("Reviews")
struct ReviewTests {
    private let form = ReviewForm(rating: 4, content: "키감이 부드럽고 소리가 좋아요.")

    @Test("only an order that was delivered and not fully refunded lets its buyer review",
          arguments: TestStore.allCases, InMemoryPurchaseHistory.OrderStatus.allCases)
    func eligibilityByOrderStatus(_ store: TestStore, status: InMemoryPurchaseHistory.OrderStatus) async throws {
        try await SocialShop.with(store) { shop in
            let product = try await shop.product()
            let buyer = try await shop.buyer(of: product, status: status)
            if status.allowsReview {
                let review = try await shop.keycat.reviews.write(form, of: product.id, by: buyer)
                #expect(review.rating == 4 && review.authorID == buyer.userID)
            } else {
                await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            }
        }
    }

    @Test("a buyer without any order of the product cannot review it, even with an order of another", arguments: TestStore.allCases)
    func noPurchase(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let other = try await shop.product("다른 키보드")
            let buyer = try await shop.buyer(of: other)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 0)
        }
    }

    @Test("a buyer whose order was fully refunded cannot review; a partial refund still can", arguments: TestStore.allCases)
    func refunded(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let refunded = try await shop.buyer(of: product)
            shop.purchases.setStatus(buyer: refunded.userID, product: product.id, to: .refunded)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: refunded) }
            let partial = try await shop.buyer(of: product)
            shop.purchases.setStatus(buyer: partial.userID, product: product.id, to: .partiallyRefunded)
            _ = try await shop.keycat.reviews.write(form, of: product.id, by: partial)
        }
    }

    @Test("rating and content are validated before anything else", arguments: TestStore.allCases, [
        (0, "열 글자가 넘는 리뷰입니다.", "rating"),
        (6, "열 글자가 넘는 리뷰입니다.", "rating"),
        (-1, "열 글자가 넘는 리뷰입니다.", "rating"),
        (3, "짧아요", "content"),
        (3, "   아홉 글자 리뷰다   ", "content"),
        (3, String(repeating: "가", count: 1001), "content"),
    ])
    func validation(_ store: TestStore, _ broken: (Int, String, String)) async throws {
        let (rating, content, field) = broken
        try await SocialShop.with(store) { shop in
            let product = try await shop.product()
            // No purchase: validation still comes first.
            let stranger = try await shop.user()
            await expectError(.validation, field: field) {
                try await shop.keycat.reviews.write(ReviewForm(rating: rating, content: content), of: product.id, by: stranger)
            }
        }
    }

    @Test("content of exactly 10 and 1000 characters is accepted, trimmed", arguments: TestStore.allCases)
    func contentBounds(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let short = try await shop.review(product, content: "  열 글자 리뷰입니다  ")
            #expect(short.content == "열 글자 리뷰입니다")
            let long = try await shop.review(product, content: String(repeating: "좋", count: 1000))
            #expect(long.content.count == 1000)
        }
    }

    @Test("a second review of the same product by the same buyer is a duplicate (409)", arguments: TestStore.allCases)
    func duplicate(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let buyer = try await shop.buyer(of: product)
            let first = try await shop.keycat.reviews.write(form, of: product.id, by: buyer)
            await expectError(.duplicate) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            do {
                _ = try await shop.keycat.reviews.write(form, of: product.id, by: buyer)
            } catch {
                #expect(HTTPErrorResponse(error).status == 409)
            }
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 1)
            // Once deleted, the buyer may review again.
            try await shop.keycat.reviews.delete(first.id, by: buyer)
            _ = try await shop.keycat.reviews.write(form, of: product.id, by: buyer)
        }
    }

    @Test("an operator's removal of a review stands: its author is refused (403) a new one, others are not", arguments: TestStore.allCases)
    func operatorRemovalStands(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let (author, other) = (try await shop.buyer(of: product), try await shop.buyer(of: product))
            let removed = try await shop.keycat.reviews.write(form, of: product.id, by: author)
            try await shop.keycat.reviews.delete(removed.id, by: shop.shop.operatorConsole)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: author) }
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 0)
            await #expect(try shop.keycat.reviews.reviews(of: product.id).items.isEmpty)
            // Another buyer's review, and the author's of another product, are untouched.
            _ = try await shop.keycat.reviews.write(form, of: product.id, by: other)
            let second = try await shop.product("다른 상품")
            shop.purchases.record(buyer: author.userID, product: second.id, status: .delivered)
            _ = try await shop.keycat.reviews.write(form, of: second.id, by: author)
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 1)
            // An operator who bought it and deletes their own review is its author: they write again.
            let operatorBuyer = try await shop.shop.user(.admin)
            shop.purchases.record(buyer: operatorBuyer.userID, product: product.id, status: .delivered)
            let own = try await shop.keycat.reviews.write(form, of: product.id, by: operatorBuyer)
            try await shop.keycat.reviews.delete(own.id, by: operatorBuyer)
            _ = try await shop.keycat.reviews.write(form, of: product.id, by: operatorBuyer)
            try await shop.shop.expectHealthy()
        }
    }

    @Test("a missing or deleted product is not found; so is a withdrawn author", arguments: TestStore.allCases)
    func missing(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let buyer = try await shop.buyer(of: product)
            await expectError(.notFound) { try await shop.keycat.reviews.write(form, of: ProductID(9_999), by: buyer) }
            try await shop.keycat.catalog.delete(product.id, by: shop.shop.operatorConsole)
            await expectError(.notFound) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            await expectError(.notFound) { try await shop.keycat.reviews.reviews(of: product.id) }

            let live = try await shop.product("살아 있는 상품")
            let leaving = try await shop.buyer(of: live)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: leaving)
            await expectError(.notFound) { try await shop.keycat.reviews.write(form, of: live.id, by: leaving) }
            await #expect(try shop.keycat.catalog.product(live.id).ratingCount == 0)
        }
    }

    @Test("a withdrawn author's review stays, under the nick every withdrawn account shows", arguments: TestStore.allCases)
    func withdrawnAuthor(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let author = try await shop.buyer(of: product)
            let review = try await shop.keycat.reviews.write(ReviewForm(rating: 4, content: "키감이 쫀득해요. 만족합니다."), of: product.id, by: author)
            #expect(review.authorNick != AccountRules.withdrawnNick)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: author)
            let listed = try await shop.keycat.reviews.reviews(of: product.id).items
            #expect(listed.map(\.id) == [review.id] && listed[0].authorNick == AccountRules.withdrawnNick, "\(listed)")
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 1)
        }
    }

    @Test("count, sum and score follow every write and delete, and the rating sort reads them", arguments: TestStore.allCases)
    func counters(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let good = try await shop.product("좋은 키보드")
            let better = try await shop.product("더 좋은 키보드")
            let first = try await shop.review(good, rating: 5)
            try await shop.review(good, rating: 4)
            try await shop.review(good, rating: 4)
            try await shop.review(better, rating: 5)
            var stored = try await shop.keycat.catalog.product(good.id)
            #expect(stored.ratingCount == 3 && stored.ratingSum == 13)
            #expect(RatingScore.score(sum: stored.ratingSum, count: stored.ratingCount) == 4_333)
            var ranked = try await shop.keycat.catalog.list(ProductListRequest(sort: .rating)).items.map(\.id)
            #expect(ranked == [better.id, good.id])

            try await shop.keycat.reviews.delete(first.id, by: shop.shop.operatorConsole)
            stored = try await shop.keycat.catalog.product(good.id)
            #expect(stored.ratingCount == 2 && stored.ratingSum == 8 && stored.averageRating == 4)
            ranked = try await shop.keycat.catalog.list(ProductListRequest(sort: .rating)).items.map(\.id)
            #expect(ranked == [better.id, good.id])
            await #expect(try shop.keycat.checkHealth().isHealthy)
        }
    }

    @Test("the author or an admin deletes a review; anyone else is notOwner", arguments: TestStore.allCases)
    func deletion(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let author = try await shop.buyer(of: product)
            let review = try await shop.keycat.reviews.write(form, of: product.id, by: author)
            for intruder in await [try shop.user(.buyer), try shop.user(.seller)] {
                await expectError(.notOwner) { try await shop.keycat.reviews.delete(review.id, by: intruder) }
            }
            try await shop.keycat.reviews.delete(review.id, by: author)
            await expectError(.notFound) { try await shop.keycat.reviews.delete(review.id, by: author) }
            await expectError(.notFound) { try await shop.keycat.reviews.review(review.id) }

            let second = try await shop.review(product)
            let admin = try await shop.user(.admin)
            try await shop.keycat.reviews.delete(second.id, by: admin)
            let audit = try await shop.keycat.auditLog.recent(limit: 5).first { $0.action == "review.delete" }
            #expect(audit?.target == "review:\(second.id)")
            #expect(audit?.actor == admin.auditActor)
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 0)
        }
    }

    @Test("a product's and an author's reviews walk newest first, each exactly once", arguments: TestStore.allCases)
    func lists(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let author = try await shop.user()
            var written: [Review] = []
            for index in 0..<7 {
                if index % 2 == 0 { shop.clock.advance(by: 1) }  // some share a time: ties by id
                let other = try await shop.product("상품 \(index)")
                shop.purchases.record(buyer: author.userID, product: other.id, status: .delivered)
                _ = try await shop.keycat.reviews.write(form, of: other.id, by: author)
                await written.append(try shop.review(product, rating: 1 + index % 5))
            }
            let expected = written.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.map(\.id)
            var seen: [ReviewID] = []
            var cursor: String?
            repeat {
                let page = try await shop.keycat.reviews.reviews(of: product.id, limit: try PageLimit(3), cursor: cursor)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == expected)

            let byAuthor = try await shop.keycat.reviews.reviews(by: author.userID, limit: try PageLimit(4))
            #expect(byAuthor.items.count == 4 && byAuthor.items.allSatisfy { $0.authorID == author.userID })
            let rest = try await shop.keycat.reviews.reviews(by: author.userID, limit: try PageLimit(4), cursor: byAuthor.nextCursor)
            #expect(rest.items.count == 3 && rest.nextCursor == nil)
            #expect(byAuthor.items.first?.authorNick.isEmpty == false)
        }
    }

    @Test("a cursor from one review list is invalidCursor on another", arguments: TestStore.allCases)
    func foreignCursor(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let other = try await shop.product("다른 상품")
            for _ in 0..<3 { try await shop.review(product) }
            let page = try await shop.keycat.reviews.reviews(of: product.id, limit: try PageLimit(1))
            let cursor = try #require(page.nextCursor)
            await expectError(.invalidCursor) { try await shop.keycat.reviews.reviews(of: other.id, cursor: cursor) }
            await expectError(.invalidCursor) { try await shop.keycat.reviews.reviews(by: UserID(product.id.rawValue), cursor: cursor) }
            await #expect(try shop.keycat.reviews.reviews(of: product.id, cursor: cursor).items.count == 2)
        }
    }
}

@Suite("Reviews after real purchases")
struct ReviewPurchaseTests {
    @Test("a buyer reviews once the parcel is delivered and its receipt confirmed; not unpaid, paid, shipped, delivered unconfirmed, nor after a full refund",
          arguments: TestStore.allCases)
    func reviewsFollowRealOrders(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop async throws in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let form = ReviewForm(rating: 5, content: "타건감이 정말 좋습니다. 추천해요!")
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            _ = try await shop.checkout(product, by: buyer)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }

            let refundedBuyer = try await shop.user(.buyer)
            let refunded = try await shop.receivedOrder(product, by: refundedBuyer)
            _ = try await shop.keycat.orders.refund(refunded.id, RefundRequest(reason: "단순 변심"), by: shop.operatorConsole)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: refundedBuyer) }

            let order = try await shop.paidOrder(product, by: buyer)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            _ = try await shop.keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: "123456789012", by: shop.operatorConsole)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            let delivered = try await shop.keycat.orders.deliver(order.id, by: shop.operatorConsole)
            await expectError(.forbidden) { try await shop.keycat.reviews.write(form, of: product.id, by: buyer) }
            let parcel = try #require(delivered.shipments.first)
            // Another buyer cannot confirm it: to them the parcel is not there.
            await expectError(.notFound) { try await shop.keycat.orders.confirmReceipt(of: parcel.id, by: refundedBuyer) }
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel.id, by: buyer)
            let review = try await shop.keycat.reviews.write(form, of: product.id, by: buyer)
            #expect(review.rating == 5)
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a full refund removes the review its order supported, and the rating with it; a partial one keeps it",
          arguments: TestStore.allCases)
    func fullRefundRemovesTheReview(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop async throws in
            let product = try await shop.product(stock: 5)
            let kept = try await shop.user(.buyer), removed = try await shop.user(.buyer)
            let keptOrder = try await shop.receivedOrder(product, by: kept)
            let removedOrder = try await shop.receivedOrder(product, by: removed)
            _ = try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "완벽한 키보드입니다, 추천!"), of: product.id, by: kept)
            let doomed = try await shop.keycat.reviews.write(ReviewForm(rating: 1, content: "별로예요, 환불했어요."), of: product.id, by: removed)
            await #expect(try shop.keycat.catalog.product(product.id).ratingCount == 2)
            _ = try await shop.keycat.orders.refund(keptOrder.id, RefundRequest(amount: Money(won: 1_000), reason: "작은 흠집"),
                                                   by: shop.operatorConsole)
            _ = try await shop.keycat.orders.refund(removedOrder.id, RefundRequest(reason: "반품"), by: shop.operatorConsole)
            let rated = try await shop.keycat.catalog.product(product.id)
            #expect(rated.ratingCount == 1 && rated.ratingSum == 5, "the refunded buyer's 1 star left the rating")
            await expectError(.notFound) { try await shop.keycat.reviews.review(doomed.id) }
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "review.remove"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["review:\(doomed.id)"])
            try await shop.expectHealthy()
        }
    }

    @Test("a seller cannot review their own listing", arguments: TestStore.allCases)
    func ownListing(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop async throws in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft { $0.stock = 5 }, for: seller.userID, by: seller)
            await expectError(.forbidden) {
                try await shop.keycat.reviews.write(ReviewForm(rating: 5, content: "제가 만들었지만 최고예요!"), of: product.id, by: seller)
            }
        }
    }
}
