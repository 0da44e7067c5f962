import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// The listings and their image rows run on both stores (``TestStore``); the files sit beside
/// either. The in-memory database and the header reader need no store.
@Suite("Product images")
struct ImageTests {
    /// The smallest well-formed header of each format (what ``ImageHeader`` reads), then filler.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        + [UInt8](repeating: 7, count: 64)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 2, 0x80, 0, 0, 1, 0xE0, 8, 2, 0, 0, 0] + [0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: 1, count: 64)
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]
    /// A lossless WebP of 100 × 50: `VP8L`, signature 0x2F, then (w − 1) | (h − 1) << 14.
    static let webp: [UInt8] = Array("RIFF".utf8) + [17, 0, 0, 0] + Array("WEBPVP8L".utf8) + [5, 0, 0, 0, 0x2F]
        + littleEndian(99 | 49 << 14)

    static func littleEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// Files that start right and break their format's header.
    enum malformed {
        static let pngSignatureOnly: [UInt8] = Array(png.prefix(12))
        static let pngBadColour: [UInt8] = replacing(png, at: 25, with: 5)
        static let jpegWithoutFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)
            + [UInt8](repeating: 7, count: 64)
        static let jpegScanFirst: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02] + Array(jpeg.dropFirst(2))
        static let webpOverrun: [UInt8] = replacing(webp, at: 4, with: 200)
        static let gifZeroWidth: [UInt8] = Array("GIF89a".utf8) + [0, 0, 1, 0, 0x80, 0, 0]

        static func replacing(_ bytes: [UInt8], at offset: Int, with value: UInt8) -> [UInt8] {
            var bytes = bytes
            bytes[offset] = value
            return bytes
        }
    }

    /// The images the shop keeps, by file name: the files beside a SQLite database; on Postgres
    /// the rows of `image_blobs`, and the folder beside stays empty.
    static func imageFiles(_ shop: TestShop) throws -> [String] {
        let folder = shop.directory.appendingPathComponent("shop.db.images")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        guard let url = shop.keycat.configuration.store.postgres?.url else { return files }
        #expect(files.isEmpty, "on Postgres no image is a file")
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        return try connection.query("SELECT sha256 || '.' || format FROM image_blobs ORDER BY 1", []) { $0.string(0) }
    }

    @Test("JPEG, PNG, GIF and WebP are recognised by their bytes and stored by content hash", arguments: TestStore.allCases)
    func formats(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(
                TestShop.draft(), for: seller.userID, images: [Self.jpeg, Self.png, Self.gif, Self.webp], by: seller)
            #expect(product.images.map(\.format) == [.jpeg, .png, .gif, .webp])
            #expect(try Self.imageFiles(shop).count == 4)
            for image in product.images {
                #expect(image.sha256.count == 64)
                #expect(try Self.imageFiles(shop).contains(image.fileName))
            }
            await #expect(try shop.keycat.catalog.product(product.id).images == product.images)
        }
    }

    @Test("identical bytes are stored once", arguments: TestStore.allCases)
    func deduplicated(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let first = try await shop.keycat.catalog.create(TestShop.draft("하나"), for: seller.userID, images: [Self.png], by: seller)
            let second = try await shop.keycat.catalog.create(TestShop.draft("둘"), for: seller.userID, images: [Self.png, Self.png], by: seller)
            #expect(first.images[0] == second.images[0] && second.images[0] == second.images[1])
            #expect(try Self.imageFiles(shop) == [first.images[0].fileName])
        }
    }

    @Test("a bad image rejects the whole listing before anything is written", arguments: TestStore.allCases, [
        ("text", [[UInt8]](arrayLiteral: Array("just some text pretending to be a png".utf8))),
        ("too big", [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 2 * 1024 * 1024 - 7)]),
        ("six", [[UInt8]](repeating: png, count: 6)),
        ("good then bad", [png, Array("GIF88a not really".utf8)]),
        ("only the PNG signature", [malformed.pngSignatureOnly]),
        ("PNG with a bad colour type", [malformed.pngBadColour]),
        ("JPEG with no frame header", [malformed.jpegWithoutFrame]),
        ("JPEG scan before frame", [malformed.jpegScanFirst]),
        ("WebP whose RIFF size overruns", [malformed.webpOverrun]),
        ("GIF of zero width", [malformed.gifZeroWidth]),
    ])
    func rejected(_ store: TestStore, _ bad: (name: String, images: [[UInt8]])) async throws {
        let images = bad.images
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            await expectError(.validation, field: "images") {
                try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: images, by: seller)
            }
            #expect(try Self.imageFiles(shop).isEmpty)
            await #expect(try shop.keycat.catalog.list(ProductListRequest()).items.isEmpty)
        }
    }

    @Test("a seller stores images up to their budget, then 429 with nothing written; operators are not counted", arguments: TestStore.allCases)
    func uploadBudget(_ store: TestStore) async throws {
        let budget = try RateLimit(perSecond: 1.0 / 3_600, burst: 3)
        try await TestShop.with(store, configure: { $0.imageUploadRate = budget }) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(
                TestShop.draft(), for: seller.userID, images: [Self.png, Self.gif], by: seller)
            _ = try await shop.keycat.catalog.addImage(Self.jpeg, to: product.id, by: seller)
            let stored = try Self.imageFiles(shop)
            #expect(stored.count == 3)
            // A new listing with an image, and an image added: refused before the bytes are kept.
            let refused = await expectFailure(.rateLimited) {
                try await shop.keycat.catalog.create(TestShop.draft("하나 더"), for: seller.userID, images: [Self.webp], by: seller)
            }
            #expect(Int(refused?.context["retry_after"] ?? "") ?? 0 > 0, "\(String(describing: refused))")
            await expectFailure(.rateLimited) { try await shop.keycat.catalog.addImage(Self.webp, to: product.id, by: seller) }
            #expect(try Self.imageFiles(shop) == stored)
            await #expect(try shop.keycat.catalog.product(product.id).images.count == 3)
            // A listing without images takes nothing; an operator's upload is not counted.
            _ = try await shop.keycat.catalog.create(TestShop.draft("사진 없음"), for: seller.userID, by: seller)
            _ = try await shop.keycat.catalog.addImage(Self.webp, to: product.id, by: shop.operatorConsole)
            // Another seller has a budget of their own.
            let other = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("다른"), for: other.userID, images: [Self.webp], by: other)
            // The budget comes back with time.
            shop.clock.advance(by: 3_600)
            _ = try await shop.keycat.catalog.create(TestShop.draft("한 시간 뒤"), for: seller.userID, images: [Self.webp], by: seller)
        }
    }

    @Test("exactly 2 MB is allowed", arguments: TestStore.allCases)
    func exactlyTwoMegabytes(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let image = Self.png + [UInt8](repeating: 0, count: 2 * 1024 * 1024 - Self.png.count)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [image], by: seller)
            #expect(product.images.count == 1)
        }
    }

    @Test("an image is read back by its file name; a name that is not one never reaches the disk", arguments: TestStore.allCases)
    func readBack(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [Self.png], by: seller)
            let stored = try await shop.keycat.catalog.image(named: product.images[0].fileName)
            #expect(stored.bytes == Self.png && stored.image.format.mediaType == "image/png")
            let unknown = String(repeating: "a", count: 64) + ".png"
            for name in [unknown, "../shop.db", "shop.db", product.images[0].sha256.uppercased() + ".png",
                         product.images[0].sha256 + ".exe", product.images[0].fileName + ".png", ""] {
                await expectError(.notFound) { try await shop.keycat.catalog.image(named: name) }
            }
        }
    }

    @Test("on Postgres an image one server took is served by another, and one from the folder beside moves into the database as it is served")
    func sharedOnPostgres() async throws {
        guard TestStore.allCases.contains(.postgres) else { return }
        try await withTemporaryDirectory { directory async throws in
            try await withPostgresSchema { postgres in
                let url = try postgres.schemaURL()
                func server(_ name: String) async throws -> KeyCat {
                    let files = directory.appendingPathComponent(name)
                    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
                    var configuration = KeyCat.Configuration(.postgres(url: url, filesBeside: files.appendingPathComponent("shop.db").path))
                    configuration.passwordIterations = 1_000
                    configuration.gatewayLog = DiscardingLogSink()
                    return try await KeyCat.open(configuration)
                }
                let one = try await server("one")
                defer { one.close() }
                let two = try await server("two")
                defer { two.close() }
                let seller = try await one.accounts.createUser(
                    SignUpForm(email: "images@example.com", password: "keycat123", nick: "images"), role: .seller,
                    by: .operatorConsole("tester"))
                let principal = Principal(userID: seller.id, role: .seller)
                let product = try await one.catalog.create(TestShop.draft(), for: seller.id, images: [Self.png], by: principal)
                #expect(try await two.catalog.image(named: product.images[0].fileName).bytes == Self.png)

                // An image written to the folder beside server two before images moved into the
                // database, and one whose bytes are not what its name says.
                let legacy = try InMemoryImageStore().inspect(Self.gif)
                let folder = directory.appendingPathComponent("two/shop.db.images")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(Self.gif).write(to: folder.appendingPathComponent(legacy.fileName))
                let forged = try InMemoryImageStore().inspect(Self.jpeg)
                try Data(Self.png).write(to: folder.appendingPathComponent(forged.fileName))
                await expectError(.notFound) { try await one.catalog.image(named: legacy.fileName) }
                #expect(try await two.catalog.image(named: legacy.fileName).bytes == Self.gif)
                #expect(try await one.catalog.image(named: legacy.fileName).bytes == Self.gif)  // now in the database
                await expectError(.notFound) { try await two.catalog.image(named: forged.fileName) }
            }
        }
    }

    @Test("an in-memory database keeps its images in memory and writes nothing to disk")
    func inMemory() async throws {
        var configuration = KeyCat.Configuration(databasePath: ":memory:")
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        let seller = try await keycat.accounts.createUser(
            SignUpForm(email: "mem@example.com", password: "keycat123", nick: "mem"), role: .seller,
            by: .operatorConsole("tester"))
        let principal = Principal(userID: seller.id, role: .seller)
        let product = try await keycat.catalog.create(TestShop.draft(), for: seller.id, images: [Self.gif], by: principal)
        #expect(try await keycat.catalog.image(named: product.images[0].fileName).bytes == Self.gif)
        let here = FileManager.default.currentDirectoryPath
        #expect(!FileManager.default.fileExists(atPath: here + "/:memory:.images"))
        #expect(!FileManager.default.fileExists(atPath: here + "/:memory:.pg.db"))
    }

    @Test("the header's declared size is read for every format, and sides past the limit are refused")
    func dimensions() throws {
        #expect(ImageHeader(Self.jpeg) == ImageHeader(format: .jpeg, width: 640, height: 480))
        #expect(ImageHeader(Self.png) == ImageHeader(format: .png, width: 640, height: 480))
        #expect(ImageHeader(Self.gif) == ImageHeader(format: .gif, width: 1, height: 1))
        #expect(ImageHeader(Self.webp) == ImageHeader(format: .webp, width: 100, height: 50))
        var huge = Self.png
        huge.replaceSubrange(16..<20, with: [0, 0, 0x40, 0])  // 16,384 wide
        #expect(ImageHeader(huge) == nil)
        // Every truncation of a good header is refused or still describes the same image; none traps.
        for image in [Self.jpeg, Self.png, Self.gif, Self.webp] {
            for length in 0..<image.count {
                let header = ImageHeader(Array(image.prefix(length)))
                #expect(header == nil || header == ImageHeader(image))
            }
        }
    }
}
