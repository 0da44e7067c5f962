import Foundation
import KeyCat
import KeyCatData
import KeyCatTestSupport

/// A ``TestShop`` for the social features: reviews ask an in-memory purchase history the test
/// fills, and toggles are not rate-limited unless the test sets a limit.
struct SocialShop {
    let shop: TestShop
    let purchases: InMemoryPurchaseHistory

    var keycat: KeyCat { shop.keycat }
    var clock: TestClock { shop.clock }

    static func with<Result>(
        rateLimit: RateLimit? = nil, _ body: (SocialShop) async throws -> Result
    ) async throws -> Result {
        let purchases = InMemoryPurchaseHistory()
        return try await TestShop.with(configure: {
            $0.purchaseHistory = purchases
            $0.toggleRateLimit = rateLimit
        }) { shop async throws in try await body(SocialShop(shop: shop, purchases: purchases)) }
    }

    /// The same on `store` (see ``TestShop/with(_:configure:_:)``).
    static func with<Result>(
        _ store: TestStore, rateLimit: RateLimit? = nil, _ body: (SocialShop) async throws -> Result
    ) async throws -> Result {
        let purchases = InMemoryPurchaseHistory()
        return try await TestShop.with(store, configure: {
            $0.purchaseHistory = purchases
            $0.toggleRateLimit = rateLimit
        }) { shop async throws in try await body(SocialShop(shop: shop, purchases: purchases)) }
    }

    func user(_ role: Role = .buyer) async throws -> Principal { try await shop.user(role) }

    /// A listing by a new seller.
    func product(_ title: String = "Felt F99 유무선 기계식 키보드") async throws -> Product {
        let seller = try await shop.user(.seller)
        return try await keycat.catalog.create(TestShop.draft(title), for: seller.userID, by: seller)
    }

    /// A buyer with an order of `product` (delivered, unless `status` says otherwise).
    func buyer(of product: Product, status: InMemoryPurchaseHistory.OrderStatus = .delivered) async throws -> Principal {
        let buyer = try await shop.user(.buyer)
        purchases.record(buyer: buyer.userID, product: product.id, status: status)
        return buyer
    }

    /// Writes a review of `product` by a new buyer whose order of it was delivered.
    @discardableResult
    func review(_ product: Product, rating: Int = 5, content: String = "타건감이 아주 좋습니다. 추천해요!") async throws -> Review {
        try await keycat.reviews.write(ReviewForm(rating: rating, content: content), of: product.id, by: try buyer(of: product))
    }
}
