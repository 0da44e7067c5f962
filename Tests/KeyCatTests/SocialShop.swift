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
        rateLimit: RateLimit? = nil, _ body: (SocialShop) throws -> Result
    ) throws -> Result {
        let purchases = InMemoryPurchaseHistory()
        return try TestShop.with(configure: {
            $0.purchaseHistory = purchases
            $0.toggleRateLimit = rateLimit
        }) { shop throws in try body(SocialShop(shop: shop, purchases: purchases)) }
    }

    static func with<Result>(_ body: (SocialShop) async throws -> Result) async throws -> Result {
        let purchases = InMemoryPurchaseHistory()
        return try await TestShop.with(configure: {
            $0.purchaseHistory = purchases
            $0.toggleRateLimit = nil
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

    func user(_ role: Role = .buyer) throws -> Principal { try shop.user(role) }

    /// A listing by a new seller.
    func product(_ title: String = "Felt F99 유무선 기계식 키보드") throws -> Product {
        let seller = try shop.user(.seller)
        return try keycat.catalog.create(TestShop.draft(title), for: seller.userID, by: seller)
    }

    /// A buyer with an order of `product` (delivered, unless `status` says otherwise).
    func buyer(of product: Product, status: InMemoryPurchaseHistory.OrderStatus = .delivered) throws -> Principal {
        let buyer = try shop.user(.buyer)
        purchases.record(buyer: buyer.userID, product: product.id, status: status)
        return buyer
    }

    /// Writes a review of `product` by a new buyer whose order of it was delivered.
    @discardableResult
    func review(_ product: Product, rating: Int = 5, content: String = "타건감이 아주 좋습니다. 추천해요!") throws -> Review {
        try keycat.reviews.write(ReviewForm(rating: rating, content: content), of: product.id, by: try buyer(of: product))
    }
}
