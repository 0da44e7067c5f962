import Foundation
import KeyCatInfrastructure
import Testing
@testable import KeyCat

@Suite("Product images")
struct ImageTests {
    /// Real file signatures followed by filler bytes.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 7, count: 64)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 1, count: 64)
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]
    static let webp: [UInt8] = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 2, count: 32)

    private func imageFiles(_ shop: TestShop) -> [String] {
        let folder = shop.directory.appendingPathComponent("shop.db.images")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("JPEG, PNG, GIF and WebP are recognised by their bytes and stored by content hash")
    func formats() throws {
        try TestShop.with { shop throws in
            let seller = try shop.user(.seller)
            let product = try shop.keycat.catalog.create(
                TestShop.draft(), for: seller.userID, images: [Self.jpeg, Self.png, Self.gif, Self.webp], by: seller)
            #expect(product.images.map(\.format) == [.jpeg, .png, .gif, .webp])
            #expect(imageFiles(shop).count == 4)
            for image in product.images {
                #expect(image.sha256.count == 64)
                #expect(imageFiles(shop).contains(image.fileName))
            }
            #expect(try shop.keycat.catalog.product(product.id).images == product.images)
        }
    }

    @Test("identical bytes are stored once")
    func deduplicated() throws {
        try TestShop.with { shop throws in
            let seller = try shop.user(.seller)
            let first = try shop.keycat.catalog.create(TestShop.draft("하나"), for: seller.userID, images: [Self.png], by: seller)
            let second = try shop.keycat.catalog.create(TestShop.draft("둘"), for: seller.userID, images: [Self.png, Self.png], by: seller)
            #expect(first.images[0] == second.images[0] && second.images[0] == second.images[1])
            #expect(imageFiles(shop) == [first.images[0].fileName])
        }
    }

    @Test("a bad image rejects the whole listing before anything is written", arguments: [
        ("text", [[UInt8]](arrayLiteral: Array("just some text pretending to be a png".utf8))),
        ("too big", [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 2 * 1024 * 1024 - 7)]),
        ("six", [[UInt8]](repeating: png, count: 6)),
        ("good then bad", [png, Array("GIF88a not really".utf8)]),
    ])
    func rejected(name: String, images: [[UInt8]]) throws {
        try TestShop.with { shop throws in
            let seller = try shop.user(.seller)
            expectError(.validation, field: "images") {
                try shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: images, by: seller)
            }
            #expect(imageFiles(shop).isEmpty)
            #expect(try shop.keycat.catalog.list(ProductListRequest()).items.isEmpty)
        }
    }

    @Test("exactly 2 MB is allowed")
    func exactlyTwoMegabytes() throws {
        try TestShop.with { shop throws in
            let seller = try shop.user(.seller)
            let image = Self.png + [UInt8](repeating: 0, count: 2 * 1024 * 1024 - Self.png.count)
            let product = try shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [image], by: seller)
            #expect(product.images.count == 1)
        }
    }

    @Test("an image is read back by its file name; a name that is not one never reaches the disk")
    func readBack() throws {
        try TestShop.with { shop throws in
            let seller = try shop.user(.seller)
            let product = try shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [Self.png], by: seller)
            let stored = try shop.keycat.catalog.image(named: product.images[0].fileName)
            #expect(stored.bytes == Self.png && stored.image.format.mediaType == "image/png")
            let unknown = String(repeating: "a", count: 64) + ".png"
            for name in [unknown, "../shop.db", "shop.db", product.images[0].sha256.uppercased() + ".png",
                         product.images[0].sha256 + ".exe", product.images[0].fileName + ".png", ""] {
                expectError(.notFound) { try shop.keycat.catalog.image(named: name) }
            }
        }
    }

    @Test("an in-memory database keeps its images in memory and writes nothing to disk")
    func inMemory() throws {
        var configuration = KeyCat.Configuration(databasePath: ":memory:")
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        let keycat = try KeyCat.open(configuration)
        defer { keycat.close() }
        let seller = try keycat.accounts.createUser(
            SignUpForm(email: "mem@example.com", password: "keycat123", nick: "mem"), role: .seller,
            as: .operatorConsole("tester"))
        let principal = Principal(userID: seller.id, role: .seller)
        let product = try keycat.catalog.create(TestShop.draft(), for: seller.id, images: [Self.gif], by: principal)
        #expect(try keycat.catalog.image(named: product.images[0].fileName).bytes == Self.gif)
        let here = FileManager.default.currentDirectoryPath
        #expect(!FileManager.default.fileExists(atPath: here + "/:memory:.images"))
        #expect(!FileManager.default.fileExists(atPath: here + "/:memory:.pg.db"))
    }
}

