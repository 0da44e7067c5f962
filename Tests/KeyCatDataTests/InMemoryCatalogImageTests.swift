import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

@Suite("Adding images to a listing, on the in-memory product repository")
struct InMemoryCatalogImageTests {
    let clock = TestClock()
    let products = InMemoryProductRepository(activeSellers: [CatalogFixture.seller])
    let images = InMemoryImageStore()
    let catalog: CatalogService
    let seller = CatalogFixture.sellerPrincipal
    /// A 64 × 48 PNG's signature and `IHDR`.
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 64, 0, 0, 0, 48, 8, 6, 0, 0, 0, 1, 2, 3, 4]

    init() {
        catalog = CatalogService(products: products, images: images,
                                 cursors: HMACPageCursorCodec(key: CatalogFixture.cursorKey), clock: clock)
    }

    @Test("an image goes at the end and bumps the version; the bytes are kept")
    func add() async throws {
        let product = try await catalog.create(CatalogFixture.listings[0].draft, for: seller.userID, images: [png], by: seller)
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]
        let updated = try await catalog.addImage(gif, to: product.id, expectedVersion: product.version, by: seller)
        #expect(updated.images.map(\.format) == [.png, .gif])
        #expect(updated.version == product.version + 1)
        #expect(try await images.load(updated.images[1]) == gif)
    }

    @Test("a stale version, a sixth image, bytes that are no image, another seller and a deleted listing are refused; nothing changes")
    func refusals() async throws {
        let product = try await catalog.create(CatalogFixture.listings[0].draft, for: seller.userID, images: [png, png, png, png], by: seller)
        let other = Principal(userID: UserID(99), role: .seller)
        #expect(await keycatError { try await catalog.addImage(png, to: product.id, expectedVersion: 7, by: seller) }?.code == .versionConflict)
        #expect(await keycatError { try await catalog.addImage(Array("text".utf8), to: product.id, by: seller) }?.context["field"] == "images")
        #expect(await keycatError { try await catalog.addImage(png, to: product.id, by: other) }?.code == .notOwner)
        #expect(try await catalog.product(product.id) == product)
        _ = try await catalog.addImage(png, to: product.id, by: seller)
        #expect(await keycatError { try await catalog.addImage(png, to: product.id, by: seller) }?.context["field"] == "images")
        try await catalog.delete(product.id, by: seller)
        #expect(await keycatError { try await catalog.addImage(png, to: product.id, by: seller) }?.code == .notFound)
    }
}
