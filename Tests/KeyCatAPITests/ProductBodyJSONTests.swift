import Foundation
import KeyCat
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The product bodies written by ``JSONWriter`` against the `Codable` form under
/// `JSONEncoder.keycat` that the API answered with before: the same bytes, and so the same JSON
/// parsed, for listings with every optional field present, absent, and text of every kind.
struct ProductBodyJSONTests {
    static let now = Date(timeIntervalSince1970: 1_763_913_600)  // 2025-11-23T16:00:00Z

    static func product(title: String = "Felt F99 유무선 기계식 키보드", content: String = "Gasket mount, PBT keycaps.",
                        discountEndsAt: Date? = nil, ratings: (count: Int, sum: Int) = (0, 0),
                        images: [ProductImage] = [], spec: KeyboardSpec = KeyboardSpec()) -> Product {
        Product(
            id: ProductID(rawValue: 42), sellerID: UserID(rawValue: 7), kind: .groupBuy, category: .keyboard,
            title: title, content: content,
            pricing: Pricing(regularPrice: Money(won: 189_000), salePrice: Money(won: 159_000),
                             couponPrice: Money(won: 5_000), discountEndsAt: discountEndsAt),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDawn), stock: 12, images: images, spec: spec,
            ratingCount: ratings.count, ratingSum: ratings.sum, bookmarkCount: 9, version: 3,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25), updatedAt: Date(timeIntervalSince1970: 1_763_000_000.75))
    }

    static let fullSpec = KeyboardSpec(input: .mechanical, connection: .multi, pcb: .hotSwap, switchType: .tactile,
                                       layout: .seventyFivePercent, keycapProfile: .cherry, backlight: false)
    static let images = [
        ProductImage(sha256: String(repeating: "ab", count: 32), format: .png),
        ProductImage(sha256: String(repeating: "0f", count: 32), format: .jpeg),
    ]

    static let bodies: [(String, ProductBody)] = [
        ("every optional field absent", ProductBody(product(), at: now)),
        ("every optional field present", ProductBody(product(
            discountEndsAt: now.addingTimeInterval(86_400 * 3 + 0.5), ratings: (3, 13), images: images, spec: fullSpec), at: now)),
        ("a lapsed discount, a whole rating", ProductBody(product(
            discountEndsAt: now.addingTimeInterval(-1), ratings: (2, 10), spec: KeyboardSpec(backlight: true)), at: now)),
        ("part of a spec", ProductBody(product(spec: KeyboardSpec(connection: .wired, layout: .tenkeyless)), at: now)),
        ("unicode and emoji", ProductBody(product(
            title: "한정판 ⌨️ Tofu65 — “Crème brûlée” 🍮👨‍👩‍👧", content: "日本語 العربية ﷺ \u{10FFFF} e\u{301}"), at: now)),
        ("control characters, quotes, slashes", ProductBody(product(
            title: "Line\nbreak\t\"quoted\" \\ back/slash", content: "\u{0}\u{1}\u{1F}\u{7F}\u{2028}</script>\r\n"), at: now)),
        ("empty text", ProductBody(product(title: "", content: ""), at: now)),
    ]

    static func written(_ body: some JSONWritable) -> [UInt8] {
        var writer = JSONWriter()
        body.write(to: &writer)
        return writer.bytes
    }

    static func parsed(_ bytes: [UInt8]) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSObject)
    }

    @Test("a listing is written byte for byte as JSONEncoder.keycat encodes it", arguments: bodies)
    func sameBytes(_ name: String, _ body: ProductBody) throws {
        let old = Array(try JSONEncoder.keycat.encode(body))
        let new = Self.written(body)
        #expect(String(decoding: new, as: UTF8.self) == String(decoding: old, as: UTF8.self), "\(name)")
        #expect(try Self.parsed(new) == Self.parsed(old), "\(name)")
    }

    @Test("a written listing has the members the contract names and leaves absent optionals out")
    func members() throws {
        let full = try #require(try JSONSerialization.jsonObject(with: Data(Self.written(Self.bodies[1].1))) as? [String: Any])
        #expect(full["discount_ends_at"] as? String == "2025-11-26T16:00:00Z")
        #expect(full["rating_average"] as? Double == 13.0 / 3)
        #expect((full["spec"] as? [String: Any])?.count == 7)
        #expect((full["images"] as? [[String: Any]])?.first?["file_name"] as? String == Self.images[0].fileName)
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(Self.written(Self.bodies[0].1))) as? [String: Any])
        #expect(bare["discount_ends_at"] == nil && bare["rating_average"] == nil)
        #expect((bare["spec"] as? [String: Any])?.isEmpty == true && (bare["images"] as? [Any])?.isEmpty == true)
        #expect(Set(full.keys).subtracting(bare.keys) == ["discount_ends_at", "rating_average"])
    }

    @Test("pages are written as JSONEncoder.keycat encodes them, next_cursor null on the last")
    func pages() throws {
        let items = Self.bodies.map(\.1)
        for page in [PageBody(items: items, nextCursor: "eyJrIjoxfQ.c2ln/+="), PageBody(items: items, nextCursor: nil),
                     PageBody(items: [], nextCursor: nil)] {
            #expect(Self.written(page) == Array(try JSONEncoder.keycat.encode(page)))
        }
    }

    @Test("the product page and detail routes answer the bytes JSONEncoder.keycat gives for the same listings",
          arguments: TestStore.allCases)
    func routes(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            for title in ["Felt F99 유무선 기계식 키보드", "Tofu65 \"Crème\" ⌨️ / 60%", "한정판 😀 \\ back\\slash"] {
                _ = try await server.product(title: title)
            }
            let now = server.clock.now()
            // Two of three: the page has a next_cursor, signed for this list.
            let page = try await server.keycat.catalog.list(ProductListRequest(limit: try PageLimit(2)))
            #expect(page.nextCursor != nil)
            let expectedPage = try JSONEncoder.keycat.encode(PageBody(page) { ProductBody($0, at: now) })
            let answer = await server.api.respond(to: APIRequest(method: "GET", target: "/products?limit=2"))
            #expect(answer.status == 200 && answer.headers["Content-Type"] == "application/json")
            #expect(String(decoding: answer.body, as: UTF8.self) == String(decoding: expectedPage, as: UTF8.self))

            let id = try #require(page.items.first?.id)
            let expectedDetail = try await JSONEncoder.keycat.encode(ProductBody(try server.keycat.catalog.product(id), at: now))
            let detail = await server.api.respond(to: APIRequest(method: "GET", target: "/products/\(id.rawValue)"))
            #expect(detail.status == 200 && detail.body == Array(expectedDetail))
        }
    }
}
