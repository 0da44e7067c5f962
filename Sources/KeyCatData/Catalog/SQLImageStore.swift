import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Product images in the `image_blobs` table, addressed by the SHA-256 of their bytes: KeyCat's
/// store on Postgres, where several servers share one database and none of them can rely on a
/// folder the others write. An image any server took is served by every server, and `pg_dump`
/// carries the images with the rows that name them.
///
/// Storing the same bytes again only marks them stored now (two servers storing one image at
/// once both succeed). An image is deleted only by a sweep, once no listing has named it for a
/// long while (``CatalogService/sweepImages(retention:dryRun:by:)``); the folder's legacy files
/// are left as they are.
///
/// **Images written before the table** (a Postgres shop that kept them in the folder beside,
/// `legacyFolder`) are read from the folder the first time they are asked for and copied into
/// the table then, so they move over as they are served, with nothing to run.
package struct SQLImageStore<Database: SQLDatabase>: ImageStore {
    private let database: Database
    private let legacyFolder: FileSystemImageStore?
    private let clock: any WallClock

    package init(database: Database, legacyFolder: FileSystemImageStore?, clock: any WallClock) {
        self.database = database
        self.legacyFolder = legacyFolder
        self.clock = clock
    }

    package func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage {
        try FileSystemImageStore.reference(for: bytes)
    }

    package func store(_ bytes: [UInt8]) async throws(KeyCatError) -> ProductImage {
        let image = try inspect(bytes)
        try await insert(image, bytes)
        return image
    }

    package func load(_ image: ProductImage) async throws(KeyCatError) -> [UInt8] {
        guard image.sha256.utf8.count == 64, image.sha256.allSatisfy(\.isHexDigit) else {
            throw .validation("image", "not an image reference")
        }
        let stored = try await storage {
            try await database.readStatement { connection in
                try connection.queryOne("SELECT bytes FROM image_blobs WHERE sha256 = ? AND format = ?",
                                        [.text(image.sha256), .text(image.format.rawValue)]) { $0.bytes(0) }
            }
        }
        if let stored { return stored }
        guard let legacyFolder, let bytes = try? await legacyFolder.load(image),
              (try? inspect(bytes)) == image
        else { throw KeyCatError.notFound("image", image.fileName) }
        try await insert(image, bytes)
        return bytes
    }

    /// Reads the images last stored before `cutoff` a page at a time (by hash), then deletes
    /// those not kept with the same condition on `stored_at`: an image stored again meanwhile
    /// stays, and one stored after the delete is inserted anew.
    package func sweep(storedBefore cutoff: Date, keeping keep: Set<String>, dryRun: Bool) async throws(KeyCatError) -> ImageSweep {
        var swept = ImageSweep()
        var after = ""
        while true {
            let page = try await storage {
                try await database.read { connection in
                    try connection.query("""
                        SELECT sha256, format, length(bytes) FROM image_blobs WHERE stored_at < ? AND sha256 > ?
                        ORDER BY sha256 LIMIT ?
                        """, [StoredTime.value(cutoff), .text(after), .int(Self.sweepPage)]) {
                        (sha256: $0.string(0), fileName: $0.string(0) + "." + $0.string(1), bytes: $0.int64(2))
                    }
                }
            }
            let gone = page.filter { !keep.contains($0.fileName) }
            if dryRun {
                swept.images += gone.count
                swept.bytes += gone.reduce(0) { $0 + $1.bytes }
            } else if !gone.isEmpty {
                let deleted = try await storage {
                    try await database.write { connection in
                        try connection.query("""
                            DELETE FROM image_blobs WHERE stored_at < ? AND sha256 IN (\(gone.map { _ in "?" }.joined(separator: ", ")))
                            RETURNING length(bytes)
                            """, [StoredTime.value(cutoff)] + gone.map { .text($0.sha256) }) { $0.int64(0) }
                    }
                }
                swept.images += deleted.count
                swept.bytes += deleted.reduce(0, +)
            }
            guard page.count == Self.sweepPage, let last = page.last else { return swept }
            after = last.sha256
        }
    }

    /// How many images a sweep reads, and deletes, at a time.
    static var sweepPage: Int { 500 }

    /// Stores the bytes, or marks them stored now when they are there. A server whose clock is
    /// behind another's never moves the time back (the sweep's grace counts from the latest).
    private func insert(_ image: ProductImage, _ bytes: [UInt8]) async throws(KeyCatError) {
        let now = clock.now()
        try await storage {
            try await database.write { connection in
                _ = try connection.run("""
                    INSERT INTO image_blobs (sha256, format, bytes, stored_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (sha256) DO UPDATE
                    SET stored_at = CASE WHEN excluded.stored_at > image_blobs.stored_at THEN excluded.stored_at
                                         ELSE image_blobs.stored_at END
                    """, [.text(image.sha256), .text(image.format.rawValue), .blob(bytes), StoredTime.value(now)])
            }
        }
    }
}
