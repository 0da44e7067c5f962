import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How a ``Product`` maps to a `products` row, in one place: the column list, the decoder and
/// the bindings for insert and update.
package enum ProductRow {
    static let columns = """
        id, seller_id, kind, category, title, content, regular_price, price, coupon_price, \
        discount_ends_at, delivery_fee, delivery_schedule, stock, images, spec_input, \
        spec_connection, spec_pcb, spec_switch_type, spec_layout, spec_keycap_profile, \
        spec_backlight, rating_count, rating_sum, bookmark_count, version, created_at, updated_at, \
        deleted_at, listed, tags
        """

    /// How many columns ``columns`` lists: where the columns a join adds after them start. A
    /// literal, so reading it is a constant rather than a lazy global's check on every row
    /// (a test holds it to ``columns``).
    static let columnCount = 30

    /// The code tables of every enum column, fetched once per row (one lazy-global check).
    private struct Codes: Sendable {
        let kinds = TextCodes(ProductKind.self, column: "kind")
        let categories = TextCodes(ProductCategory.self, column: "category")
        let schedules = TextCodes(DeliverySchedule.self, column: "delivery_schedule")
        let inputs = TextCodes(KeyboardSpec.InputMechanism.self, column: "spec_input")
        let connections = TextCodes(KeyboardSpec.Connection.self, column: "spec_connection")
        let pcbs = TextCodes(KeyboardSpec.PCB.self, column: "spec_pcb")
        let switchTypes = TextCodes(KeyboardSpec.SwitchType.self, column: "spec_switch_type")
        let layouts = TextCodes(KeyboardSpec.Layout.self, column: "spec_layout")
        let profiles = TextCodes(KeyboardSpec.KeycapProfile.self, column: "spec_keycap_profile")
    }

    private static let codes = Codes()

    static func decode(_ row: some SQLRow) throws -> Product {
        let codes = Self.codes
        return try decode(row, codes)
    }

    private static func decode(_ row: some SQLRow, _ codes: Codes) throws -> Product {
        Product(
            id: ProductID(row.int64(0)),
            sellerID: UserID(row.int64(1)),
            kind: try codes.kinds.decode(row, 2),
            category: try codes.categories.decode(row, 3),
            title: row.string(4),
            content: row.string(5),
            pricing: Pricing(
                regularPrice: Money(won: row.int64(6)), salePrice: Money(won: row.int64(7)),
                couponPrice: Money(won: row.int64(8)), discountEndsAt: StoredTime.date(row.optionalInt64(9))),
            delivery: Delivery(fee: Money(won: row.int64(10)), schedule: try codes.schedules.decode(row, 11)),
            stock: row.int(12),
            images: row.textCode(13).count == 0 ? [] : try images(row.string(13)),
            spec: KeyboardSpec(
                input: try codes.inputs.decodeOptional(row, 14),
                connection: try codes.connections.decodeOptional(row, 15),
                pcb: try codes.pcbs.decodeOptional(row, 16),
                switchType: try codes.switchTypes.decodeOptional(row, 17),
                layout: try codes.layouts.decodeOptional(row, 18),
                keycapProfile: try codes.profiles.decodeOptional(row, 19),
                backlight: row.isNull(20) ? nil : row.bool(20)),
            ratingCount: row.int(21),
            ratingSum: row.int(22),
            bookmarkCount: row.int(23),
            version: row.int(24),
            createdAt: StoredTime.date(row.int64(25)),
            updatedAt: StoredTime.date(row.int64(26)),
            deletedAt: StoredTime.date(row.optionalInt64(27)),
            isListed: row.bool(28),
            tags: tags(row.string(29)))
    }

    /// `INSERT INTO products (…)` with the columns ``insertArguments(_:sellerID:images:millis:)``
    /// fills, without its `VALUES`.
    static let insertIntoSQL = """
        INSERT INTO products (seller_id, kind, category, title, content, regular_price, price,
            coupon_price, discount_ends_at, delivery_fee, delivery_schedule, stock, images,
            spec_input, spec_connection, spec_pcb, spec_switch_type, spec_layout,
            spec_keycap_profile, spec_backlight, created_at, updated_at, tags)
        """
    /// ``insertIntoSQL`` with the `id` first, for loads that take their ids from the sequence
    /// beforehand (Postgres).
    static let insertWithIDIntoSQL = insertIntoSQL.replacingOccurrences(of: "INSERT INTO products (", with: "INSERT INTO products (id, ")
    /// The placeholders of one row of ``insertIntoSQL``.
    static let insertRowSQL = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertSQL = insertIntoSQL + " VALUES " + insertRowSQL
    /// ``insertIntoSQL`` of one row only while its seller (the last argument) may list; a
    /// locking clause may follow.
    static let insertForSellerSQL = insertIntoSQL + " SELECT " + insertRowSQL.dropFirst().dropLast()
        + " FROM users WHERE id = ? AND role = 'seller' AND withdrawn_at IS NULL AND suspended_at IS NULL"

    static func insertArguments(_ draft: ProductDraft, sellerID: UserID, images: [ProductImage], millis: Int64) -> [SQLValue] {
        [.integer(sellerID.rawValue), .text(draft.kind.rawValue), .text(draft.category.rawValue),
         .text(draft.title), .text(draft.content)]
            + pricingArguments(draft.pricing)
            + [.integer(draft.delivery.fee.won), .text(draft.delivery.schedule.rawValue), .int(draft.stock),
               .text(images.map(\.fileName).joined(separator: ","))]
            + specArguments(draft.spec)
            + [.integer(millis), .integer(millis), .text(storedTags(draft.tags))]
    }

    static let updateSQL = """
        UPDATE products SET kind = ?, category = ?, title = ?, content = ?, regular_price = ?,
            price = ?, coupon_price = ?, discount_ends_at = ?, delivery_fee = ?,
            delivery_schedule = ?, stock = ?, spec_input = ?, spec_connection = ?, spec_pcb = ?,
            spec_switch_type = ?, spec_layout = ?, spec_keycap_profile = ?, spec_backlight = ?,
            tags = ?, version = version + 1, updated_at = ?
        WHERE id = ? AND version = ? AND deleted_at IS NULL
        """

    /// ``updateSQL``, answering whether the listing is listed as the update found it.
    static let updateReturningListedSQL = updateSQL + " RETURNING listed"

    static func updateArguments(_ product: Product, expectedVersion: Int, millis: Int64) -> [SQLValue] {
        [.text(product.kind.rawValue), .text(product.category.rawValue), .text(product.title), .text(product.content)]
            + pricingArguments(product.pricing)
            + [.integer(product.delivery.fee.won), .text(product.delivery.schedule.rawValue), .int(product.stock)]
            + specArguments(product.spec)
            + [.text(storedTags(product.tags)), .integer(millis), .integer(product.id.rawValue), .int(expectedVersion)]
    }

    private static func pricingArguments(_ pricing: Pricing) -> [SQLValue] {
        [.integer(pricing.regularPrice.won), .integer(pricing.salePrice.won), .integer(pricing.couponPrice.won),
         pricing.discountEndsAt.map { .integer(StoredTime.milliseconds($0)) } ?? .null]
    }

    private static func specArguments(_ spec: KeyboardSpec) -> [SQLValue] {
        [text(spec.input), text(spec.connection), text(spec.pcb), text(spec.switchType),
         text(spec.layout), text(spec.keycapProfile), spec.backlight.map(SQLValue.bool) ?? .null]
    }

    private static func text<Value: RawRepresentable>(_ value: Value?) -> SQLValue where Value.RawValue == String {
        value.map { .text($0.rawValue) } ?? .null
    }


    /// Tags are stored space-separated: a tag has no white space (``ProductTags``).
    static func storedTags(_ tags: [String]) -> String { tags.joined(separator: " ") }

    private static func tags(_ text: String) -> [String] { split(text, on: " ") }

    private static func images(_ text: String) throws -> [ProductImage] {
        try split(text, on: ",").map { name in
            let parts = split(name, on: ".")
            guard parts.count == 2, let format = ImageFormat(rawValue: parts[1]) else {
                throw KeyCatError(.internalError, "unreadable image reference «\(name)»")
            }
            return ProductImage(sha256: parts[0], format: format)
        }
    }

    /// The non-empty parts of `text` between `separator`s, split on the ASCII byte rather than
    /// on characters, which costs a grapheme break check per character: every product a page
    /// reads has its tags and images split here.
    private static func split(_ text: String, on separator: Unicode.Scalar) -> [String] {
        guard !text.isEmpty else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            // One pass, each part made straight from its bytes: no array of slices in between
            // (a page decodes every listing's tags).
            let mark = UInt8(ascii: separator)
            var parts: [String] = []
            // Sized once: growing it as parts come reallocates it up to four times for ten tags.
            parts.reserveCapacity(bytes.count { $0 == mark } + 1)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == mark {
                if index > start { parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                start = index + 1
            }
            return parts
        }
    }

    /// The query ``find(_:on:)`` runs, handing the listing to `found`, for a batch.
    static func findQuery<Row: SQLRow>(_ id: ProductID, _ found: @escaping (Product) -> Void) -> SQLStatement<Row> {
        .query(findSQL, [.integer(id.rawValue)]) { found(try ProductRow.decode($0)) }
    }

    private static let findSQL = "SELECT \(ProductRow.columns) FROM products WHERE id = ?"

    package static func find(_ id: ProductID, on connection: some SQLConnection) throws -> Product? {
        try connection.queryOne(findSQL, [.integer(id.rawValue)], ProductRow.decode)
    }
}
