import Foundation
import KeyCatData
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// The daily sweep of the image store on each store (files beside SQLite, `image_blobs` on
/// Postgres): what no listing names goes once its grace is over, a withdrawn listing's images
/// once its retention is, and what a listing is being written with never.
@Suite("Sweeping images no listing names", .serialized)
struct ImageSweepTests {
    @Test("never named, withdrawn long ago, or stored again: the sweep takes what no listing needs and nothing else",
          arguments: TestStore.allCases)
    func sweep(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let seller = try await shop.user(.seller)
            let live = try await keycat.catalog.create(TestShop.draft("남는 키보드"), for: seller.userID, images: [ImageTests.png], by: seller)
            let gone = try await keycat.catalog.create(TestShop.draft("내린 키보드"), for: seller.userID, images: [ImageTests.jpeg], by: seller)
            try await keycat.catalog.delete(gone.id, by: seller)
            // Stored, then never named: the create it came with failed, say.
            let orphan = try await keycat.imageStore.store(ImageTests.gif)
            #expect(try ImageTests.imageFiles(shop).count == 3)

            // Within its grace the orphan stays, and only an operator sweeps.
            await #expect(try keycat.sweepImages().images == 0)
            await expectFailure(.forbidden) { try await keycat.catalog.sweepImages(retention: 0, by: seller) }
            shop.clock.advance(by: ImageRules.sweepGrace + 60)
            let dry = try await keycat.sweepImages(dryRun: true)
            #expect(dry == ImageSweepReport(listingsForgotten: 0, images: 1, bytes: Int64(ImageTests.gif.count), dryRun: true))
            #expect(try ImageTests.imageFiles(shop).count == 3)
            #expect(try await keycat.sweepImages() == ImageSweepReport(listingsForgotten: 0, images: 1, bytes: Int64(ImageTests.gif.count),
                                                                       dryRun: false))
            #expect(try ImageTests.imageFiles(shop).sorted() == [live.images[0].fileName, gone.images[0].fileName].sorted())
            await expectFailure(.notFound) { try await keycat.catalog.image(named: orphan.fileName) }

            // A withdrawn listing's images go once its retention is over, its list emptied first;
            // a dry run says so and changes nothing.
            shop.clock.advance(by: keycat.configuration.imageRetention)
            #expect(try await keycat.sweepImages(dryRun: true) == ImageSweepReport(listingsForgotten: 1, images: 1,
                                                                                   bytes: Int64(ImageTests.jpeg.count), dryRun: true))
            #expect(try ImageTests.imageFiles(shop).count == 2)
            let later = try await keycat.sweepImages()
            #expect(later.listingsForgotten == 1 && later.images == 1, "\(later)")
            #expect(try ImageTests.imageFiles(shop) == [live.images[0].fileName])
            await #expect(try keycat.catalog.image(named: live.images[0].fileName).bytes == ImageTests.png)
            // Audited when it forgets a listing's images; a sweep with none to forget writes nothing.
            let audit = try await keycat.audit.list(AuditFilter(action: "images.sweep"), by: shop.operatorConsole).items
            #expect(audit.count == 1 && audit[0].detail.hasSuffix(": 1 listing(s)"), "\(audit.map(\.detail))")

            // Stored again within the grace (a listing being written with bytes stored long ago):
            // it stays, and goes a grace after that if nothing names it.
            _ = try await keycat.imageStore.store(ImageTests.webp)
            shop.clock.advance(by: ImageRules.sweepGrace + 60)
            let again = try await keycat.imageStore.store(ImageTests.webp)
            await #expect(try keycat.sweepImages().images == 0)
            await #expect(try keycat.catalog.image(named: again.fileName).bytes == ImageTests.webp)
            shop.clock.advance(by: ImageRules.sweepGrace + 60)
            await #expect(try keycat.sweepImages().images == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("in memory, the same rules: what is kept, and what was stored within the cutoff, stays")
    func inMemory() async throws {
        let clock = TestClock()
        let store = InMemoryImageStore(clock: clock)
        let kept = try await store.store(ImageTests.png)
        let old = try await store.store(ImageTests.gif)
        clock.advance(by: 100)
        let fresh = try await store.store(ImageTests.jpeg)
        let cutoff = clock.now().addingTimeInterval(-50)
        #expect(try await store.sweep(storedBefore: cutoff, keeping: [kept.fileName], dryRun: true) == ImageSweep(images: 1, bytes: 13))
        #expect(store.count == 3)
        #expect(try await store.sweep(storedBefore: cutoff, keeping: [kept.fileName], dryRun: false) == ImageSweep(images: 1, bytes: 13))
        #expect(store.bytes(named: old.fileName) == nil && store.bytes(named: fresh.fileName) != nil && store.bytes(named: kept.fileName) != nil)
    }

    @Test("the reconciliation loop sweeps an hour after it starts, then once a day")
    func daily() async throws {
        try await TestShop.with(.sqlite) { shop in
            _ = try await shop.keycat.imageStore.store(ImageTests.gif)
            shop.clock.advance(by: ImageRules.sweepGrace + 60)
            let (runs, continuation) = AsyncStream.makeStream(of: Void.self)
            let loop = Task { await shop.keycat.reconcile(every: .milliseconds(5), gateway: .off) { _ in continuation.yield() } }
            var iterator = runs.makeAsyncIterator()
            var left: [Int] = []
            for advance in [0, 60 * 60 + 60, 12 * 60 * 60, 12 * 60 * 60] as [TimeInterval] {
                shop.clock.advance(by: advance)
                for _ in 0..<3 { _ = await iterator.next() }  // a run may have begun before the clock moved
                left.append(try ImageTests.imageFiles(shop).count)
                if left.count == 2 {
                    // Just after the first sweep, an orphan stored long ago (its time set by hand):
                    // it waits for the day to turn.
                    let orphan = try await shop.keycat.imageStore.store(ImageTests.png)
                    let path = shop.directory.appendingPathComponent("shop.db.images/\(orphan.fileName)").path
                    try FileManager.default.setAttributes([.modificationDate: shop.clock.now().addingTimeInterval(-2 * 86_400)],
                                                          ofItemAtPath: path)
                }
            }
            loop.cancel()
            await loop.value
            #expect(left == [1, 0, 1, 0], "\(left)")
        }
    }

    @Test("a file a sweep killed part way left aside is put back by the next sweep")
    func leftAside() async throws {
        try await TestShop.with(.sqlite) { shop in
            let seller = try await shop.user(.seller)
            let listing = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [ImageTests.png], by: seller)
            let folder = shop.directory.appendingPathComponent("shop.db.images").path
            let name = listing.images[0].fileName
            try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: folder + "/.sweep-\(UUID().uuidString)-" + name)
            await expectFailure(.notFound) { try await shop.keycat.catalog.image(named: name) }
            _ = try await shop.keycat.sweepImages()
            await #expect(try shop.keycat.catalog.image(named: name).bytes == ImageTests.png)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
        }
    }
}
