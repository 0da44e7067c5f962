import Foundation
import KeyCat

/// How listings look on the command line.
enum ProductPresenter {
    static let headers = ["ID", "TITLE", "CATEGORY", "KIND", "PRICE", "STOCK", "RATING", "BOOKMARKS", "SELLER"]

    static func row(_ product: Product, now: Date) -> [String] {
        [String(product.id.rawValue), String(product.title.prefix(40)), product.category.rawValue,
         product.kind.rawValue, Formatting.won(product.sellingPrice(at: now)), String(product.stock),
         product.averageRating.map { String(format: "%.1f", $0) } ?? "-", String(product.bookmarkCount),
         String(product.sellerID.rawValue)]
    }

    static func json(_ product: Product, now: Date) -> JSONValue {
        let spec = product.spec
        return .object([
            ("id", .int(product.id.rawValue)),
            ("seller_id", .int(product.sellerID.rawValue)),
            ("kind", .string(product.kind.rawValue)),
            ("category", .string(product.category.rawValue)),
            ("title", .string(product.title)),
            ("content", .string(product.content)),
            ("price", .int(product.sellingPrice(at: now).won)),
            ("regular_price", .int(product.pricing.regularPrice.won)),
            ("coupon_price", .int(product.pricing.couponPrice.won)),
            ("discount_ends_at", Formatting.timestamp(product.pricing.discountEndsAt)),
            ("delivery_fee", .int(product.delivery.fee.won)),
            ("delivery_schedule", .string(product.delivery.schedule.rawValue)),
            ("stock", .int(product.stock)),
            ("images", .array(product.images.map { .string($0.fileName) })),
            ("tags", .array(product.tags.map(JSONValue.string))),
            ("spec", .object([
                ("input", .optional(spec.input?.rawValue)),
                ("connection", .optional(spec.connection?.rawValue)),
                ("pcb", .optional(spec.pcb?.rawValue)),
                ("switch_type", .optional(spec.switchType?.rawValue)),
                ("layout", .optional(spec.layout?.rawValue)),
                ("keycap_profile", .optional(spec.keycapProfile?.rawValue)),
                ("backlight", spec.backlight.map(JSONValue.bool) ?? .null),
            ])),
            ("rating_average", product.averageRating.map(JSONValue.double) ?? .null),
            ("review_count", .int(product.ratingCount)),
            ("bookmark_count", .int(product.bookmarkCount)),
            ("version", .int(product.version)),
            ("created_at", Formatting.timestamp(product.createdAt)),
            ("updated_at", Formatting.timestamp(product.updatedAt)),
        ])
    }

    static func details(_ product: Product, now: Date) -> String {
        let spec = product.spec
        let specText = [
            spec.input?.rawValue, spec.connection?.rawValue, spec.pcb?.rawValue, spec.switchType?.rawValue,
            spec.layout?.rawValue, spec.keycapProfile.map { "\($0.rawValue) profile" },
            spec.backlight.map { $0 ? "backlit" : "no backlight" },
        ].compactMap { $0 }.joined(separator: ", ")
        var table = TextTable(["FIELD", "VALUE"])
        let rows: [(String, String)] = [
            ("id", String(product.id.rawValue)), ("title", product.title),
            ("seller", String(product.sellerID.rawValue)),
            ("kind / category", "\(product.kind.rawValue) / \(product.category.rawValue)"),
            ("price", "₩\(Formatting.won(product.sellingPrice(at: now))) (regular ₩\(Formatting.won(product.pricing.regularPrice)), coupon ₩\(Formatting.won(product.pricing.couponPrice)))"),
            ("discount ends", product.pricing.discountEndsAt.map(Formatting.timestamp) ?? "-"),
            ("delivery", "₩\(Formatting.won(product.delivery.fee)), \(product.delivery.schedule.rawValue)"),
            ("stock", String(product.stock)),
            ("spec", specText.isEmpty ? "-" : specText),
            ("tags", product.tags.isEmpty ? "-" : product.tags.map { "#" + $0 }.joined(separator: " ")),
            ("rating", product.averageRating.map { String(format: "%.2f from %d reviews", $0, product.ratingCount) } ?? "no reviews"),
            ("bookmarks", String(product.bookmarkCount)),
            ("images", product.images.isEmpty ? "-" : product.images.map(\.fileName).joined(separator: ", ")),
            ("version", String(product.version)),
            ("created", Formatting.timestamp(product.createdAt)),
        ]
        for (key, value) in rows { table.append([key, value]) }
        return table.rendered() + "\n" + product.content + "\n"
    }
}
