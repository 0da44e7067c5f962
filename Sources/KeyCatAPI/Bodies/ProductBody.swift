import Foundation
import KeyCat

/// The JSON of a listing as a client sees it: snake_case keys, money in won, times in ISO 8601.
public struct ProductBody: Encodable, Sendable, Hashable {
    /// One image: its content address, format and file name in the image store.
    public struct Image: Encodable, Sendable, Hashable {
        public var sha256: String
        public var format: String
        public var fileName: String

        enum CodingKeys: String, CodingKey {
            case sha256, format, fileName = "file_name"
        }
    }

    /// The keyboard spec; each field is absent when the listing does not say.
    public struct Spec: Encodable, Sendable, Hashable {
        public var input: String?
        public var connection: String?
        public var pcb: String?
        public var switchType: String?
        public var layout: String?
        public var keycapProfile: String?
        public var backlight: Bool?

        enum CodingKeys: String, CodingKey {
            case input, connection, pcb, switchType = "switch_type", layout, keycapProfile = "keycap_profile", backlight
        }

        public init(_ spec: KeyboardSpec) {
            input = spec.input?.rawValue
            connection = spec.connection?.rawValue
            pcb = spec.pcb?.rawValue
            switchType = spec.switchType?.rawValue
            layout = spec.layout?.rawValue
            keycapProfile = spec.keycapProfile?.rawValue
            backlight = spec.backlight
        }
    }

    public var id: Int64
    public var sellerID: Int64
    public var kind: String
    public var category: String
    public var title: String
    public var content: String
    public var regularPrice: Int64
    /// The selling price while the discount runs (the regular price after it ends).
    public var price: Int64
    public var couponPrice: Int64
    public var discountEndsAt: Date?
    public var deliveryFee: Int64
    public var deliverySchedule: String
    public var stock: Int
    public var images: [Image]
    public var spec: Spec
    /// Its tags, as the seller wrote them (without `#`).
    public var tags: [String]
    public var ratingCount: Int
    public var ratingAverage: Double?
    public var bookmarkCount: Int
    /// What an update must send back as `version`.
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, sellerID = "seller_id", kind, category, title, content, regularPrice = "regular_price", price
        case couponPrice = "coupon_price", discountEndsAt = "discount_ends_at", deliveryFee = "delivery_fee"
        case deliverySchedule = "delivery_schedule", stock, images, spec, tags, ratingCount = "rating_count"
        case ratingAverage = "rating_average", bookmarkCount = "bookmark_count", version
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    /// - Parameter now: the time the selling price is read at (a lapsed discount shows the
    ///   regular price even before the sweep stores it).
    public init(_ product: Product, at now: Date = Date()) {
        id = product.id.rawValue
        sellerID = product.sellerID.rawValue
        kind = product.kind.rawValue
        category = product.category.rawValue
        title = product.title
        content = product.content
        regularPrice = product.pricing.regularPrice.won
        price = product.sellingPrice(at: now).won
        couponPrice = product.pricing.couponPrice.won
        discountEndsAt = product.pricing.discountEndsAt.flatMap { $0 > now ? $0 : nil }
        deliveryFee = product.delivery.fee.won
        deliverySchedule = product.delivery.schedule.rawValue
        stock = product.stock
        images = product.images.map { Image(sha256: $0.sha256, format: $0.format.rawValue, fileName: $0.fileName) }
        spec = Spec(product.spec)
        tags = product.tags
        ratingCount = product.ratingCount
        ratingAverage = product.averageRating
        bookmarkCount = product.bookmarkCount
        version = product.version
        createdAt = product.createdAt
        updatedAt = product.updatedAt
    }
}
