import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator
import Testing
@testable import KeyCat

/// Tests run as root, so these check mode bits, not whether another user could open the files.
/// SQLite only: the mode bits of the database file and its `-wal`/`-shm` companions.
@Suite("Files holding secrets are owner-only")
struct FilePermissionTests {
    /// Runs `body` with the process umask set to 022 (the usual default, so tests running
    /// beside it are unaffected), restoring the previous umask after.
    static func underUmask022<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        let previous = umask(0o022)
        defer { umask(previous) }
        return try await body()
    }

    static func mode(_ path: String) -> mode_t? { FilePermissions.mode(of: path) }

    @Test("database, journals, simulator file, images and backups are created 0600/0700 under umask 022")
    func ownerOnlyUnderUmask() async throws {
        try await Self.underUmask022 {
            try await TestShop.with { shop in
                let database = shop.directory.appendingPathComponent("shop.db").path
                let simulator = PGSimulator.storagePath(besideDatabase: database)
                let product = try await BackupRestoreTests.productWithImages(shop)
                _ = try await shop.paidOrder(product, by: try shop.user(.buyer))
                // Open connections keep the -wal and -shm of both files in place.
                for path in [database, database + "-wal", database + "-shm", simulator, simulator + "-wal", simulator + "-shm"] {
                    #expect(Self.mode(path) == 0o600, "\(path): \(String(Self.mode(path) ?? 0, radix: 8))")
                }
                let images = database + ".images"
                #expect(Self.mode(images) == 0o700)
                for image in product.images { #expect(Self.mode(images + "/" + image.fileName) == 0o600) }

                let backup = shop.directory.appendingPathComponent("backup").path
                let manifest = try await shop.keycat.createBackup(in: backup, by: shop.operatorConsole)
                #expect(Self.mode(backup) == 0o700)
                #expect(Self.mode(backup + "/images") == 0o700)
                for file in manifest.files.map(\.path) + [BackupManifest.fileName] {
                    #expect(Self.mode(backup + "/" + file) == 0o600, "\(file)")
                }
                let single = shop.directory.appendingPathComponent("single.db").path
                try await shop.keycat.backup(to: single, by: shop.operatorConsole)
                #expect(Self.mode(single) == 0o600)

                let restored = shop.directory.appendingPathComponent("restored.db").path
                try await KeyCat.restoreBackup(from: backup, toDatabaseAt: restored)
                for path in [restored, PGSimulator.storagePath(besideDatabase: restored)] { #expect(Self.mode(path) == 0o600) }
                #expect(Self.mode(restored + ".images") == 0o700)
                await #expect(try shop.keycat.checkHealth().permissionWarnings.isEmpty)
            }
        }
    }

    @Test("db check warns of a database or companion open to group or others, naming the chmod, and stays healthy")
    func checkWarns() async throws {
        try await TestShop.with { shop in
            let database = shop.directory.appendingPathComponent("shop.db").path
            _ = try await BackupRestoreTests.productWithImages(shop)
            #expect(chmod(database, 0o644) == 0)
            #expect(chmod(database + ".images", 0o755) == 0)
            let report = try await shop.keycat.checkHealth()
            #expect(report.isHealthy)
            #expect(report.permissionWarnings.contains { $0.contains(database) && $0.contains("644") && $0.contains("chmod 600 '\(database)'") })
            #expect(report.permissionWarnings.contains { $0.contains("chmod 700 '\(database).images'") })
            #expect(report.permissionWarnings.count == 2, "\(report.permissionWarnings)")
        }
    }
}
