import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization
import Testing
@testable import KeyCat

/// SQLite only: online backups and restores of the file (on Postgres `db backup` only prints the
/// `pg_dump` commands, as `AdminPostgresTests` checks).
@Suite("Whole-shop backups and restores")
struct BackupRestoreTests {
    /// Opens a restored database as a server would (its simulator beside it), without creating anything.
    static func openRestored(_ path: String) async throws -> KeyCat {
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.createIfMissing = false
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        return try await KeyCat.open(configuration)
    }

    /// A listing with two images, so a backup has image files to carry.
    static func productWithImages(_ shop: TestShop) async throws -> Product {
        let seller = try await shop.user(.seller)
        return try await shop.keycat.catalog.create(
            TestShop.draft { $0.stock = 1_000 }, for: seller.userID, images: [ImageTests.png, ImageTests.jpeg], by: seller)
    }

    @Test("backup while orders are checked out and paid, restore elsewhere: healthy, same counts, images, refundable")
    func roundTripWhileWriting() async throws {
        // One buyer writes up to 200 orders as fast as it can: no per-buyer caps.
        try await TestShop.with(configure: { $0.stockHolds = nil }) { shop in
            let product = try await Self.productWithImages(shop)
            let buyer = try await shop.user(.buyer)
            let paidBefore = try await shop.paidOrder(product, by: buyer)
            let stop = Atomic<Bool>(false)
            let ordersWritten = Atomic<Int>(0)
            // Checks out and pays orders until told to stop (or 200 are written, well within the
            // stock, however slowly a loaded machine copies); some confirmed, some left awaiting
            // payment at the PG's answer, so the copies may differ in what they know.
            let writer = Task.detached { () -> Int in
                var written = 0
                while !stop.load(ordering: .relaxed) && written < 200 {
                    let order = try await shop.checkout(product, by: buyer)
                    let payment = try shop.pay(order)
                    if written % 2 == 0 { _ = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer) }
                    written += 1
                    ordersWritten.store(written, ordering: .relaxed)
                }
                return written
            }
            while ordersWritten.load(ordering: .relaxed) < 3 { await Task.yield() }
            let backup = shop.directory.appendingPathComponent("backup").path
            var steps = 0
            // A second connection to the file, so the progress callback can commit synchronously.
            let side = try SQLiteDatabase(path: shop.keycat.configuration.databasePath)
            defer { side.close() }
            let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole) { _ in
                steps += 1
                // A commit beside the snapshot.
                _ = try? side.blockingWrite {
                    try $0.run("INSERT INTO settings (key, value) VALUES (?, X'01')", [.text("step\(steps)")])
                }
            }
            stop.store(true, ordering: .relaxed)
            let written = try await writer.value
            #expect(written >= 3)
            #expect(manifest.images == 2 && manifest.missingImages.isEmpty)
            #expect(manifest.simulatorPayments != nil)
            #expect(manifest.schemaVersion == KeyCat.latestSchemaVersion)
            #expect(try KeyCat.verifyBackup(at: backup) == manifest)

            let target = shop.directory.appendingPathComponent("elsewhere/shop.db").path
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            await #expect(try KeyCat.restoreBackup(from: backup, toDatabaseAt: target) == manifest)
            await #expect(try BackupInventory.read(databaseAt: target).counts == manifest.counts)
            let restored = try await Self.openRestored(target)
            defer { restored.close() }
            let report = try await restored.checkHealth()
            #expect(report.isHealthy, "\(report)")
            let images = try await restored.catalog.product(product.id).images
            var loaded: [[UInt8]] = []
            for image in images { loaded.append(try await restored.imageStore.load(image)) }
            #expect(loaded == [ImageTests.png, ImageTests.jpeg])
            // The restored simulator is its own: refunding there leaves the live one alone.
            let refunded = try await restored.orders.refund(
                paidBefore.id, RefundRequest(amount: nil, reason: "restore drill", restock: false), by: shop.operatorConsole)
            #expect(refunded.status == .refunded)
            await #expect(try shop.keycat.orders.order(paidBefore.id, by: shop.operatorConsole).status == .paid)
            // Reconcile (the restored shop runs on the system clock, past every reservation)
            // settles the orders paid at the PG but never confirmed, whichever copy saw them first.
            let settled = try await restored.checkout.reconcile()
            #expect(settled.unresolved == 0)
            #expect(settled.paid >= 1)
            await #expect(try restored.checkHealth().isHealthy)
        }
    }

    @Test("a restore refuses an existing database without force and leaves it byte for byte; force replaces it")
    func refusesWithoutForce() async throws {
        try await TestShop.with { shop in
            _ = try await Self.productWithImages(shop)
            let backup = shop.directory.appendingPathComponent("backup").path
            let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            let target = shop.directory.appendingPathComponent("other.db").path
            let companion = PGSimulator.storagePath(besideDatabase: target)
            try Data("an older shop".utf8).write(to: URL(fileURLWithPath: target))
            try Data("its simulator".utf8).write(to: URL(fileURLWithPath: companion))
            await expectError(.storage) { try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target) }
            #expect(FileManager.default.contents(atPath: target) == Data("an older shop".utf8))
            #expect(FileManager.default.contents(atPath: companion) == Data("its simulator".utf8))
            #expect(!FileManager.default.fileExists(atPath: target + ".images"))
            // Only the simulator file there is refused too: it is part of what a restore replaces.
            let lone = shop.directory.appendingPathComponent("lone.db").path
            try Data("orphan".utf8).write(to: URL(fileURLWithPath: PGSimulator.storagePath(besideDatabase: lone)))
            await expectError(.storage) { try await KeyCat.restoreBackup(from: backup, toDatabaseAt: lone) }
            #expect(!FileManager.default.fileExists(atPath: lone))

            try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target, force: true)
            await #expect(try BackupInventory.read(databaseAt: target).counts == manifest.counts)
            let restored = try await BackupRestoreTests.openRestored(target)
            defer { restored.close() }
            await #expect(try restored.checkHealth().isHealthy)
            // No staging folder is left behind.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: shop.directory.path).filter { $0.contains(".restore-") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test("a backup whose listing is on sale beside an account that may not sell restores, and db check names it for the operators")
    func listingOfANonSellerRestores() async throws {
        try await TestShop.with { shop in
            let product = try await Self.productWithImages(shop)
            // A seller made a buyer before the listing rule held (a database from before 2026-12-01).
            try await shop.execute("UPDATE users SET role = 'buyer' WHERE id = \(product.sellerID.rawValue)")
            let backup = shop.directory.appendingPathComponent("backup").path
            let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            let target = shop.directory.appendingPathComponent("restored.db").path
            try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target)
            await #expect(try BackupInventory.read(databaseAt: target).counts == manifest.counts)
            let restored = try await BackupRestoreTests.openRestored(target)
            defer { restored.close() }
            let problems = try await restored.checkHealth().invariantProblems
            #expect(problems.count == 1 && problems.allSatisfy(CatalogInvariants.isListingProblem), "\(problems)")
            // The operators take it out; the database is healthy again.
            try await restored.catalog.delete(product.id, by: .operatorConsole("tester"))
            await #expect(try restored.checkHealth().isHealthy)
        }
    }

    /// Changes the backup's database with `change` and writes `manifest` with that file's new
    /// size and checksum, as someone editing a backup by hand would; returns what it wrote.
    @discardableResult
    static func edit(_ backup: String, manifest: BackupManifest, _ change: (SQLiteConnection) throws -> Void) throws -> BackupManifest {
        let rows = backup + "/" + BackupManifest.databaseFile
        let database = try SQLiteDatabase(path: rows)
        try database.blockingWrite(change)
        database.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: rows + suffix) }
        var manifest = manifest
        manifest.files = try manifest.files.map { $0.path == BackupManifest.databaseFile ? try KeyCat.describe($0.path, in: backup) : $0 }
        try BackupManifest.encoder.encode(manifest).write(to: URL(fileURLWithPath: backup + "/" + BackupManifest.fileName))
        return manifest
    }

    @Test("a backup taken at an older schema restores, migrated to this build's, and is healthy")
    func olderSchemaRestores() async throws {
        try await TestShop.with { shop in
            _ = try await Self.productWithImages(shop)
            let backup = shop.directory.appendingPathComponent("backup").path
            var manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            // The backup as a build of six migrations ago wrote it: without migrations 40 to 45
            // (42 changes rows only).
            manifest.schemaVersion = 39
            manifest = try Self.edit(backup, manifest: manifest) {
                try $0.run("DROP TABLE review_removals", [])
                try $0.run("DROP INDEX webhook_events_by_received_at", [])
                try $0.run("ALTER TABLE refunds DROP COLUMN requested_by", [])
                try $0.run("ALTER TABLE search_documents DROP COLUMN value_sold", [])
                try $0.run("ALTER TABLE business_registry DROP COLUMN representative_name", [])
                try $0.run("ALTER TABLE business_registry DROP COLUMN opening_date", [])
                try $0.run("DELETE FROM schema_migrations WHERE version >= 40", [])
            }

            let target = shop.directory.appendingPathComponent("restored.db").path
            await #expect(try KeyCat.restoreBackup(from: backup, toDatabaseAt: target) == manifest)
            let version = try SQLiteDatabase(path: target)
            #expect(try version.blockingRead { try $0.queryOne("SELECT max(version) FROM schema_migrations", []) { $0.int(0) } }
                == KeyCat.latestSchemaVersion)
            version.close()
            let restored = try await Self.openRestored(target)
            defer { restored.close() }
            await #expect(try restored.checkHealth().isHealthy)
        }
    }

    @Test("a backup holding a trigger no migration made is refused, its checksums rewritten to match")
    func foreignTriggerRefused() async throws {
        try await TestShop.with { shop in
            _ = try await Self.productWithImages(shop)
            let backup = shop.directory.appendingPathComponent("backup").path
            let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            // Someone edits the copy: every later payment would run their SQL.
            try Self.edit(backup, manifest: manifest) { try $0.run("CREATE TRIGGER skim AFTER INSERT ON payments BEGIN SELECT 1; END", []) }

            let target = shop.directory.appendingPathComponent("restored.db").path
            let refused = await expectFailure(.storage) { try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target) }
            #expect(refused?.message.contains("trigger skim is not one of KeyCat's") == true, "\(String(describing: refused))")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    @Test("a damaged or incomplete backup is refused before anything is put in place")
    func damagedBackup() async throws {
        try await TestShop.with { shop in
            let product = try await Self.productWithImages(shop)
            let backup = shop.directory.appendingPathComponent("backup").path
            _ = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            let image = backup + "/images/" + product.images[0].fileName
            var bytes = try #require(FileManager.default.contents(atPath: image))
            bytes[bytes.count - 1] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: image))
            let target = shop.directory.appendingPathComponent("target.db").path
            await expectError(.storage) { try KeyCat.verifyBackup(at: backup) }
            await expectError(.storage) { try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target) }
            #expect(!FileManager.default.fileExists(atPath: target))
            #expect(!FileManager.default.fileExists(atPath: target + ".images"))
            try FileManager.default.removeItem(atPath: backup + "/" + BackupManifest.fileName)
            await expectError(.storage) { try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: shop.directory.path).filter { $0.contains(".restore-") }.isEmpty)
        }
    }

    @Test("a backup never writes into an existing directory, and only an admin takes one")
    func backupRefusals() async throws {
        try await TestShop.with { shop in
            let existing = shop.directory.appendingPathComponent("existing").path
            try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
            await expectError(.storage) { try await shop.keycat.createBackup(in: existing, by: shop.operatorConsole) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: existing).isEmpty)
            let buyer = try await shop.user(.buyer)
            let other = shop.directory.appendingPathComponent("other").path
            await expectError(.forbidden) { try await shop.keycat.createBackup(in: other, by: buyer) }
            #expect(!FileManager.default.fileExists(atPath: other))
        }
    }
}

extension BackupRestoreTests {
    @Test("a forced restore sets aside the target's stale -wal, which SQLite would otherwise replay into the restored file")
    func staleWriteAheadLog() async throws {
        try await TestShop.with { shop in
            let backup = shop.directory.appendingPathComponent("backup").path
            let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
            // Later commits sit in the live -wal (the shop is still open, nothing checkpointed
            // them); copying the files now is what a crashed server leaves behind.
            for index in 0..<20 { _ = try await shop.user(.buyer, "later\(index)") }
            let database = shop.directory.appendingPathComponent("shop.db").path
            let crashed = shop.directory.appendingPathComponent("crashed")
            try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: false)
            let target = crashed.appendingPathComponent("shop.db").path
            for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: database + suffix, toPath: target + suffix) }
            #expect(KeyCat.size(of: target + "-wal") > 0)
            try await KeyCat.restoreBackup(from: backup, toDatabaseAt: target, force: true)
            #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
            let restored = try await Self.openRestored(target)
            defer { restored.close() }
            await #expect(try restored.checkHealth().isHealthy)
            await #expect(try BackupInventory.read(databaseAt: target).counts == manifest.counts)
        }
    }
}
