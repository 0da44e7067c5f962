import Foundation
import KeyCat

/// The catalog: lists with every filter, sort and cursor, and search (`q`, docs/search.md); one
/// listing; create (with images), update with the version read, image upload and download, delete.
enum ProductRoutes {
    /// Five images of at most 2 MB each, base64 in JSON (a third larger), and the rest.
    static let createLimit = 16 << 20

    /// The list's filters, the search text and tag among them, which the facets take too.
    static let filterQuery = [
        "category", "kind", "seller_id", "min_price", "max_price", "switch_type", "layout", "connection", "hot_swap", "q", "tag",
    ]

    static let listQuery = pageQuery + ["sort"] + filterQuery

    static let routes: [Route] = [
        Route(.get, "/products", .anyone, query: listQuery, waitsOnStorage: false) { context in
            let request = try listRequest(context)
            return try await context.catalogRead(.page(request)) { () async throws(KeyCatError) in
                let now = context.now
                let page = try await context.keycat.catalog.list(request)
                return (.json(PageBody(page) { ProductBody($0, at: now) }), RequestContext.priceBoundary(of: page.items, after: now))
            }
        },
        Route(.get, "/products/{id}", .anyone, waitsOnStorage: false) { context in
            let id: ProductID = try context.id()
            return try await context.catalogRead(.product(id)) { () async throws(KeyCatError) in
                let now = context.now
                let product = try await context.keycat.catalog.product(id)
                return (.json(ProductBody(product, at: now)), RequestContext.priceBoundary(of: [product], after: now))
            }
        },
        Route(.post, "/products", .roles([.seller, .admin]), body: .json(limit: createLimit), status: 201) { context in
            let body = try context.json(ProductCreateBody.self)
            let principal = try context.principal()
            let images = try body.imageBytes()
            let sellerID = try body.sellerID.map { id throws(KeyCatError) in UserID(try RequestContext.positiveID(id, field: "seller_id")) }
            let product = try await context.keycat.catalog.create(
                body.draft, for: sellerID ?? principal.userID, images: images, by: principal)
            return .json(ProductBody(product, at: context.now), status: 201).located(at: "/products/\(product.id)")
        },
        Route(.patch, "/products/{id}", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let changes = try context.json(ProductChangesBody.self).changes
            let id: ProductID = try context.id()
            if let failed = try await ifMatchFails(context, id).failed { return failed }
            // A change landing after the comparison moves the version the body names: a 409.
            let product = try await context.keycat.catalog.update(id, changes, by: context.principal())
            return .json(ProductBody(product, at: context.now))
        },
        Route(.post, "/products/{id}/images", .roles([.seller, .admin]), body: .image(limit: ImageRules.maximumBytes),
              query: ["version"]) { context in
            guard !context.request.body.isEmpty else {
                throw KeyCatError.validation("body", "the body must be the image's bytes")
            }
            let version = try context.integer("version").map { value throws(KeyCatError) -> Int in
                guard let version = Int(exactly: value) else { throw .validation("version", "version is out of range") }
                return version
            }
            let id: ProductID = try context.id()
            let precondition = try await ifMatchFails(context, id)
            if let failed = precondition.failed { return failed }
            let product = try await context.keycat.catalog.addImage(
                context.request.body, to: id, expectedVersion: version ?? precondition.version, by: context.principal())
            return .json(ProductBody(product, at: context.now))
        },
        Route(.get, "/images/{file_name}", .anyone) { context in
            let fileName = try context.name("file_name")
            // Any other name is a 400; one of this shape that no image has, 410.
            guard ProductImage(fileName: fileName) != nil else {
                throw KeyCatError.validation("file_name", "file_name must be a product image's name: 64 hex digits, a dot, and jpg, png, webp or gif")
            }
            let (image, bytes) = try await context.keycat.catalog.image(named: fileName)
            // Named by the SHA-256 of its bytes: the answer never changes.
            return APIResponse(status: 200, headers: [
                "Content-Type": image.format.mediaType, "Cache-Control": "public, max-age=31536000, immutable",
            ], body: bytes)
        },
        Route(.delete, "/products/{id}", .roles([.seller, .admin]), status: 204) { context in
            let id: ProductID = try context.id()
            let precondition = try await ifMatchFails(context, id)
            if let failed = precondition.failed { return failed }
            // The version the tag matched is checked again in the delete's own write: a change
            // landing after the comparison is a 409, as on PATCH.
            try await context.keycat.catalog.delete(id, expectedVersion: precondition.version, by: context.principal())
            return .noContent
        },
    ]

    /// `If-Match` on a listing's writes (RFC 9110 §13.1.1: a server MUST evaluate it), against
    /// the strong entity tag `GET /products/{id}` answers now; `*` matches any listing `GET`
    /// finds. When it fails the answer is 412 and nothing is written. Without the header nothing
    /// is read. As §13.2.1 says, it is not evaluated when the write would fail anyway: a listing
    /// `GET` does not find (404) or a caller who may not change it (403) get those answers.
    /// Returns the version compared, which an image upload without `version` then expects, so a
    /// change landing in between is a 409 (PATCH's body names its version; a DELETE landing
    /// within milliseconds of another change is not caught).
    static func ifMatchFails(_ context: RequestContext, _ id: ProductID) async throws(KeyCatError) -> (failed: APIResponse?, version: Int?) {
        guard let header = context.request.headers["If-Match"] else { return (nil, nil) }
        let product: Product
        do {
            product = try await context.keycat.catalog.product(id)
        } catch where error.code == .notFound {
            return (nil, nil)
        }
        let principal = try context.principal()
        guard principal.role == .admin || product.sellerID == principal.userID else { return (nil, nil) }
        let tag = APIResponse.entityTag(of: APIResponse.json(ProductBody(product, at: context.now)).body)
        let candidates = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Strong comparison: a weak tag (`W/…`) never matches.
        // `*` matches whatever the listing is now, so it pins no version for the write.
        if candidates.contains("*") { return (nil, nil) }
        guard candidates.contains(tag) else {
            return (.problem(412, "precondition_failed", "listing \(id) changed since the If-Match tag was read; read it again"),
                    product.version)
        }
        return (nil, product.version)
    }

    static func listRequest(_ context: RequestContext) throws(KeyCatError) -> ProductListRequest {
        // Relevance by default with a text, newest without.
        ProductListRequest(filter: try filter(context), sort: try context.choice("sort"), limit: try context.limit(),
                           cursor: try context.cursor())
    }

    /// The filters of ``filterQuery``.
    static func filter(_ context: RequestContext) throws(KeyCatError) -> ProductFilter {
        ProductFilter(
            category: try context.choice("category"), kind: try context.choice("kind"),
            sellerID: try context.integer("seller_id").map(UserID.init),
            minimumPrice: try context.integer("min_price").map(Money.init(won:)),
            maximumPrice: try context.integer("max_price").map(Money.init(won:)),
            switchType: try context.choice("switch_type"), layout: try context.choice("layout"),
            connection: try context.choice("connection"), hotSwap: try context.boolean("hot_swap"),
            // `q=` present but empty is refused, never a list of everything.
            text: try context.query("q").map { text throws(KeyCatError) in try SearchQuery(text) },
            tag: try context.query("tag").map { text throws(KeyCatError) in try ProductTags.filterValue(text) })
    }
}

/// The keyboard spec in snake_case; every field optional.
struct SpecBody: Decodable, Sendable {
    var input: KeyboardSpec.InputMechanism?
    var connection: KeyboardSpec.Connection?
    var pcb: KeyboardSpec.PCB?
    var switchType: KeyboardSpec.SwitchType?
    var layout: KeyboardSpec.Layout?
    var keycapProfile: KeyboardSpec.KeycapProfile?
    var backlight: Bool?

    enum CodingKeys: String, CodingKey {
        case input, connection, pcb, switchType = "switch_type", layout, keycapProfile = "keycap_profile", backlight
    }

    var spec: KeyboardSpec {
        KeyboardSpec(input: input, connection: connection, pcb: pcb, switchType: switchType, layout: layout,
                     keycapProfile: keycapProfile, backlight: backlight)
    }
}

struct ProductCreateBody: Decodable, Sendable {
    var sellerID: Int64?
    var kind: ProductKind
    var category: ProductCategory
    var title: String
    var content: String
    var regularPrice: Int64
    var price: Int64
    var couponPrice: Int64?
    var discountEndsAt: Date?
    var deliveryFee: Int64
    var deliverySchedule: DeliverySchedule
    var stock: Int
    var spec: SpecBody?
    /// Up to 10 tags (``ProductTags``).
    var tags: [String]?
    /// Base64 of each image's bytes (JPEG, PNG, WebP or GIF, ≤ 2 MB, at most 5).
    var images: [String]?

    enum CodingKeys: String, CodingKey {
        case sellerID = "seller_id", kind, category, title, content, regularPrice = "regular_price", price
        case couponPrice = "coupon_price", discountEndsAt = "discount_ends_at", deliveryFee = "delivery_fee"
        case deliverySchedule = "delivery_schedule", stock, spec, tags, images
    }

    var draft: ProductDraft {
        ProductDraft(
            kind: kind, category: category, title: title, content: content,
            pricing: Pricing(regularPrice: Money(won: regularPrice), salePrice: Money(won: price),
                             couponPrice: Money(won: couponPrice ?? 0), discountEndsAt: discountEndsAt),
            delivery: Delivery(fee: Money(won: deliveryFee), schedule: deliverySchedule), stock: stock,
            spec: spec?.spec ?? KeyboardSpec(), tags: tags ?? [])
    }

    func imageBytes() throws(KeyCatError) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for (index, text) in (images ?? []).enumerated() {
            guard let data = Data(base64Encoded: text) else {
                throw .validation("images.\(index)", "images.\(index) is not base64")
            }
            result.append(Array(data))
        }
        return result
    }
}

/// A change to a listing: `version` (the one read) is required; fields left out stay;
/// `discount_ends_at: null` removes the discount's end.
struct ProductChangesBody: Decodable, Sendable, JSONClosedObject {
    var changes: ProductChanges

    static var members: Set<String> { members(of: CodingKeys.self) }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, title, content, kind, category, regularPrice = "regular_price", price, couponPrice = "coupon_price"
        case discountEndsAt = "discount_ends_at", deliveryFee = "delivery_fee", deliverySchedule = "delivery_schedule"
        case stock, spec, tags
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var changes = ProductChanges(expectedVersion: try container.decode(Int.self, forKey: .version))
        changes.title = try container.decodeIfPresent(String.self, forKey: .title)
        changes.content = try container.decodeIfPresent(String.self, forKey: .content)
        changes.kind = try container.decodeIfPresent(ProductKind.self, forKey: .kind)
        changes.category = try container.decodeIfPresent(ProductCategory.self, forKey: .category)
        changes.regularPrice = try container.decodeIfPresent(Int64.self, forKey: .regularPrice).map(Money.init(won:))
        changes.price = try container.decodeIfPresent(Int64.self, forKey: .price).map(Money.init(won:))
        changes.couponPrice = try container.decodeIfPresent(Int64.self, forKey: .couponPrice).map(Money.init(won:))
        switch try container.change(Date.self, forKey: .discountEndsAt) {
        case .keep: break
        case .clear: changes.discountEndsAt = .some(nil)
        case let .set(date): changes.discountEndsAt = date
        }
        changes.deliveryFee = try container.decodeIfPresent(Int64.self, forKey: .deliveryFee).map(Money.init(won:))
        changes.deliverySchedule = try container.decodeIfPresent(DeliverySchedule.self, forKey: .deliverySchedule)
        changes.stock = try container.decodeIfPresent(Int.self, forKey: .stock)
        changes.spec = try container.decodeIfPresent(SpecBody.self, forKey: .spec)?.spec
        changes.tags = try container.decodeIfPresent([String].self, forKey: .tags)
        self.changes = changes
    }
}
