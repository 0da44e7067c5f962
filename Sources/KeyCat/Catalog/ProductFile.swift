import Foundation
import KeyCatDomain

/// A product as JSON, the format of `seed/catalog.json`, `products add --file` and
/// `products import` (snake_case keys; see `seed/product-example.json`).
///
/// Prices are whole won. `discount_days` (1–30) sets the discount's end that many days after the
/// import, so a seed file never goes stale. `images` are file paths, relative to the JSON file.
/// `tags` are up to 10 hashtags (`["갈축", "#저소음"]`, checked as ``ProductTags`` says).
public struct ProductFile: Sendable, Decodable {
    public var seller: String?
    public var kind: String
    public var category: String
    public var title: String
    public var content: String
    public var regularPrice: Int64
    public var price: Int64
    public var couponPrice: Int64?
    public var discountDays: Int?
    public var deliveryFee: Int64
    public var deliverySchedule: String
    public var stock: Int
    public var spec: Spec?
    public var images: [String]?
    public var tags: [String]?

    /// The keyboard spec as JSON; every field optional.
    public struct Spec: Sendable, Decodable {
        public var input: String?
        public var connection: String?
        public var pcb: String?
        public var switchType: String?
        public var layout: String?
        public var keycapProfile: String?
        public var backlight: Bool?

        enum CodingKeys: String, CodingKey {
            case input, connection, pcb, backlight
            case switchType = "switch_type"
            case layout
            case keycapProfile = "keycap_profile"
        }
    }

    enum CodingKeys: String, CodingKey {
        case seller, kind, category, title, content, stock, spec, images, tags
        case regularPrice = "regular_price"
        case price
        case couponPrice = "coupon_price"
        case discountDays = "discount_days"
        case deliveryFee = "delivery_fee"
        case deliverySchedule = "delivery_schedule"
    }

    /// Reads one product from JSON.
    ///
    /// - Throws: a validation error naming the key that is missing or of the wrong type.
    public static func decode(_ data: Data) throws(KeyCatError) -> ProductFile {
        try JSONInput.decode(ProductFile.self, from: data)
    }

    /// The listing this file describes, as of `now`.
    ///
    /// - Throws: a validation error naming the field with an unknown value.
    public func draft(at now: Date) throws(KeyCatError) -> ProductDraft {
        if let discountDays, !(1...30).contains(discountDays) {
            throw .validation("discount_days", "discount_days must be 1–30")
        }
        return ProductDraft(
            kind: try Self.value(kind, "kind"),
            category: try Self.value(category, "category"),
            title: title,
            content: content,
            pricing: Pricing(
                regularPrice: Money(won: regularPrice), salePrice: Money(won: price),
                couponPrice: Money(won: couponPrice ?? 0),
                discountEndsAt: discountDays.map { now.addingTimeInterval(Double($0) * 86_400) }),
            delivery: Delivery(fee: Money(won: deliveryFee), schedule: try Self.value(deliverySchedule, "delivery_schedule")),
            stock: stock,
            spec: KeyboardSpec(
                input: try Self.optional(spec?.input, "spec.input"),
                connection: try Self.optional(spec?.connection, "spec.connection"),
                pcb: try Self.optional(spec?.pcb, "spec.pcb"),
                switchType: try Self.optional(spec?.switchType, "spec.switch_type"),
                layout: try Self.optional(spec?.layout, "spec.layout"),
                keycapProfile: try Self.optional(spec?.keycapProfile, "spec.keycap_profile"),
                backlight: spec?.backlight),
            tags: tags ?? [])
    }

    static func value<Value: RawRepresentable & CaseIterable>(_ text: String, _ field: String) throws(KeyCatError) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else {
            let valid = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw .validation(field, "\(field) must be one of \(valid)")
        }
        return value
    }

    static func optional<Value: RawRepresentable & CaseIterable>(_ text: String?, _ field: String) throws(KeyCatError) -> Value?
    where Value.RawValue == String {
        guard let text else { return nil }
        return try value(text, field) as Value
    }
}

/// JSON decoding that turns `DecodingError` into a validation error naming the key path.
enum JSONInput {
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(KeyCatError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .validation(path(context.codingPath + [key]), "\(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw .validation(path(context.codingPath), "\(path(context.codingPath)) has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) where !context.codingPath.isEmpty {
            throw .validation(path(context.codingPath), "\(path(context.codingPath)) is null")
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            // The whole file is a number, a string, an array or null: there is no key to name.
            throw .validation("file", "the file must be a JSON object")
        } catch {
            throw .validation("file", "the file is not valid JSON")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            .replacingOccurrences(of: ".[", with: "[")
    }
}
