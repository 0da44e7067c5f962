import Foundation

/// Everything a seller sends to create a listing. ``validated(at:)`` checks every rule of
/// architecture §2 and names the field that breaks one.
public struct ProductDraft: Sendable, Hashable {
    public var kind: ProductKind
    public var category: ProductCategory
    public var title: String
    public var content: String
    public var pricing: Pricing
    public var delivery: Delivery
    public var stock: Int
    public var spec: KeyboardSpec
    /// Up to 10 tags (``ProductTags``).
    public var tags: [String]

    public init(
        kind: ProductKind, category: ProductCategory, title: String, content: String,
        pricing: Pricing, delivery: Delivery, stock: Int, spec: KeyboardSpec = KeyboardSpec(), tags: [String] = []
    ) {
        self.kind = kind
        self.category = category
        self.title = title
        self.content = content
        self.pricing = pricing
        self.delivery = delivery
        self.stock = stock
        self.spec = spec
        self.tags = tags
    }

    /// The draft with its text trimmed, once every rule holds.
    ///
    /// - Throws: a validation error naming the field: `title` (1–100 characters), `content`
    ///   (at most 2000), the price fields, `delivery_fee` (0–1,000,000: the shop's own bound,
    ///   ``defaultMaximumDeliveryFee`` unless configured, is checked by ``CatalogService``),
    ///   `stock` (0–1,000,000), `tags` (``ProductTags``).
    public func validated(at now: Date) throws(KeyCatError) -> ProductDraft {
        var draft = self
        draft.title = try Self.validateTitle(title)
        draft.content = try Self.validateContent(content)
        draft.tags = try ProductTags.validated(tags)
        try pricing.validate(at: now)
        try Self.validateDeliveryFee(delivery.fee)
        try Self.validateStock(stock)
        return draft
    }

    /// A title's length once trimmed, in characters.
    public static let titleLength = 1...100
    /// The longest description once trimmed, in characters.
    public static let maximumContentLength = 2_000
    /// A delivery fee, in won: what any listing may carry, and the range a shop's bound
    /// (``CatalogService/maximumDeliveryFee``) is chosen in.
    public static let deliveryFeeRange: ClosedRange<Int64> = 0...1_000_000
    /// The highest delivery fee a listing may be given unless the shop configures another:
    /// ₩50,000, above what any courier charges for a keyboard. Bounded so that a price cannot
    /// hide in the fee, where price sorts and filters do not look (they compare item prices).
    public static let defaultMaximumDeliveryFee = Money(won: 50_000)
    /// Units in stock.
    public static let stockRange = 0...1_000_000

    /// A title: 1–100 characters, at most 400 bytes, no control or format characters (``TextRules``).
    public static let titleField = TextRules.Field("title", characters: titleLength, refusesControlCharacters: true,
                                                   formatCharacters: .refused)
    /// A description: at most 2000 characters and 8,000 bytes; line breaks allowed.
    public static let contentField = TextRules.Field("content", characters: 0...maximumContentLength)

    /// The title trimmed and in NFC, once it passes ``titleField``.
    static func validateTitle(_ title: String) throws(KeyCatError) -> String {
        try TextRules.text(title, titleField)
    }

    /// The description trimmed and in NFC, once it passes ``contentField``.
    static func validateContent(_ content: String) throws(KeyCatError) -> String {
        try TextRules.text(content, contentField)
    }

    static func validateDeliveryFee(_ fee: Money) throws(KeyCatError) {
        guard deliveryFeeRange.contains(fee.won) else {
            throw .validation("delivery_fee", "delivery_fee must be between 0 and 1,000,000 won")
        }
    }

    /// Throws `validation` (`delivery_fee`) unless `fee` is at most `maximum`, the shop's bound.
    public static func checkDeliveryFee(_ fee: Money, atMost maximum: Money) throws(KeyCatError) {
        guard fee <= maximum else {
            throw .validation("delivery_fee", "delivery_fee must be at most \(maximum) in this shop")
        }
    }

    static func validateStock(_ stock: Int) throws(KeyCatError) {
        guard stockRange.contains(stock) else {
            throw .validation("stock", "stock must be between 0 and 1,000,000")
        }
    }
}

/// A change to a listing: only the fields that are set change. It must carry the version it
/// was based on; a stale version is a `versionConflict`.
public struct ProductChanges: Sendable, Hashable {
    /// The version the caller read. `nil` only for operator tools that re-read just before.
    public var expectedVersion: Int?
    public var title: String?
    public var content: String?
    public var kind: ProductKind?
    public var category: ProductCategory?
    public var regularPrice: Money?
    public var price: Money?
    public var couponPrice: Money?
    /// `.some(nil)` removes the discount end; `nil` leaves it.
    public var discountEndsAt: Date??
    public var deliveryFee: Money?
    public var deliverySchedule: DeliverySchedule?
    public var stock: Int?
    public var spec: KeyboardSpec?
    /// The whole new set of tags.
    public var tags: [String]?

    public init(expectedVersion: Int?) { self.expectedVersion = expectedVersion }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && content == nil && kind == nil && category == nil && regularPrice == nil
            && price == nil && couponPrice == nil && discountEndsAt == nil && deliveryFee == nil
            && deliverySchedule == nil && stock == nil && spec == nil && tags == nil
    }

    /// Checks each field given on its own (a title's length, a fee's range…), before the
    /// listing is read, so a bad change is a validation error whether or not the listing
    /// exists. What ties fields together (the prices) is checked on the result by
    /// ``applied(to:at:)``.
    public func validateFields() throws(KeyCatError) {
        if let title { _ = try ProductDraft.validateTitle(title) }
        if let content { _ = try ProductDraft.validateContent(content) }
        if let regularPrice, regularPrice.won <= 0 {
            throw .validation("regular_price", "regular_price must be more than 0")
        }
        if let price, price.won <= 0 { throw .validation("price", "price must be more than 0") }
        for (field, value) in [("regular_price", regularPrice), ("price", price), ("coupon_price", couponPrice)] {
            if let value, value > Pricing.maximumPrice { throw .validation(field, "\(field) must be at most ₩100,000,000") }
        }
        if let couponPrice, couponPrice.won < 0 { throw .validation("coupon_price", "coupon_price cannot be negative") }
        if let deliveryFee { try ProductDraft.validateDeliveryFee(deliveryFee) }
        if let stock { try ProductDraft.validateStock(stock) }
        if let tags { _ = try ProductTags.validated(tags) }
    }

    /// `product` with these changes applied and validated at `now`.
    public func applied(to product: Product, at now: Date) throws(KeyCatError) -> Product {
        var updated = product
        if let title { updated.title = title }
        if let content { updated.content = content }
        if let kind { updated.kind = kind }
        if let category { updated.category = category }
        // A product whose discount has lapsed sells at the regular price: start from there.
        if let ends = updated.pricing.discountEndsAt, now >= ends {
            updated.pricing.salePrice = updated.pricing.regularPrice
            updated.pricing.discountEndsAt = nil
        }
        if let regularPrice { updated.pricing.regularPrice = regularPrice }
        if let price { updated.pricing.salePrice = price }
        if let couponPrice { updated.pricing.couponPrice = couponPrice }
        if let discountEndsAt { updated.pricing.discountEndsAt = discountEndsAt }
        if let deliveryFee { updated.delivery.fee = deliveryFee }
        if let deliverySchedule { updated.delivery.schedule = deliverySchedule }
        if let stock { updated.stock = stock }
        if let spec { updated.spec = spec }
        if let tags { updated.tags = tags }
        let draft = try ProductDraft(
            kind: updated.kind, category: updated.category, title: updated.title,
            content: updated.content, pricing: updated.pricing, delivery: updated.delivery,
            stock: updated.stock, spec: updated.spec, tags: updated.tags
        ).validated(at: now)
        updated.title = draft.title
        updated.content = draft.content
        updated.tags = draft.tags
        return updated
    }
}
