import Foundation

/// A listing's prices (architecture §2): `regularPrice ≥ price > 0`, `couponPrice ≥ 0`, and an optional
/// end to the discount, after which the selling price is the regular price again.
public struct Pricing: Sendable, Hashable {
    /// The list price.
    public var regularPrice: Money
    /// The discounted selling price while the discount runs (equal to `regularPrice` when there
    /// is no discount).
    public var salePrice: Money
    /// The extra amount a coupon takes off.
    public var couponPrice: Money
    /// When the discount ends; `nil` for a discount without end (or none).
    public var discountEndsAt: Date?

    public init(regularPrice: Money, salePrice: Money, couponPrice: Money = .zero, discountEndsAt: Date? = nil) {
        self.regularPrice = regularPrice
        self.salePrice = salePrice
        self.couponPrice = couponPrice
        self.discountEndsAt = discountEndsAt
    }

    /// The price a buyer pays at `now`: the sale price while the discount runs, else the regular.
    public func sellingPrice(at now: Date) -> Money {
        if let discountEndsAt, now >= discountEndsAt { return regularPrice }
        return salePrice
    }

    /// The longest a discount may run, counted from when it is set.
    public static let longestDiscount: TimeInterval = 31 * 24 * 60 * 60

    /// Checks architecture §2's price rules at `now`.
    ///
    /// - Throws: a validation error naming the field that breaks a rule.
    /// The highest price a listing may ask, ₩100,000,000: with 50 lines of 99 units and their
    /// delivery fees, no cart or order total can come near Int64's end, so no buyer's checkout
    /// fails on an overflow a seller caused.
    public static let maximumPrice = Money(won: 100_000_000)

    public func validate(at now: Date) throws(KeyCatError) {
        guard salePrice.won > 0 else {
            throw .validation("price", "price must be more than 0")
        }
        guard regularPrice <= Self.maximumPrice else {
            throw .validation("regular_price", "regular_price must be at most ₩100,000,000")
        }
        guard regularPrice >= salePrice else {
            throw .validation("regular_price", "regular_price must be at least the price")
        }
        guard couponPrice.won >= 0 else {
            throw .validation("coupon_price", "coupon_price cannot be negative")
        }
        guard couponPrice < salePrice else {
            throw .validation("coupon_price", "coupon_price must be less than the price")
        }
        if let discountEndsAt {
            guard discountEndsAt > now else {
                throw .validation("discount_ends_at", "discount_ends_at must be in the future")
            }
            guard discountEndsAt.timeIntervalSince(now) <= Self.longestDiscount else {
                throw .validation("discount_ends_at", "a discount may run at most one month")
            }
        }
    }
}
