import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// What a sweep of the image store asks of the listings
/// (``CatalogService/sweepImages(retention:dryRun:by:)``): the images they name, and the image
/// lists of listings withdrawn long ago emptied.
extension SQLProductRepository {
    /// How many listings a read of their image lists takes at a time.
    static var imageListPage: Int { 10_000 }

    package func imageFileNames(withdrawnSince: Date) async throws(KeyCatError) -> Set<String> {
        var names = Set<String>()
        var after: Int64 = 0
        while true {
            let page = try await storage {
                try await database.read { connection in
                    try connection.query("""
                        SELECT id, images FROM products
                        WHERE id > ? AND images <> '' AND (deleted_at IS NULL OR deleted_at >= ?)
                        ORDER BY id LIMIT ?
                        """, [.integer(after), StoredTime.value(withdrawnSince), .int(Self.imageListPage)]) {
                        (id: $0.int64(0), images: $0.string(1))
                    }
                }
            }
            for listing in page { names.formUnion(listing.images.split(separator: ",").map(String.init)) }
            guard page.count == Self.imageListPage, let last = page.last else { return names }
            after = last.id
        }
    }

    /// Counted first, on a reader (migration 35's index finds them): a day with nothing to
    /// forget takes no write lock, writes no audit entry and tells no server its catalog changed.
    package func forgetImages(ofListingsWithdrawnBefore cutoff: Date, dryRun: Bool, at now: Date,
                              audit: AuditEntry) async throws(KeyCatError) -> Int {
        let condition = "deleted_at IS NOT NULL AND deleted_at < ? AND images <> ''"
        return try await storage {
            let due = try await database.read { connection in
                try connection.queryOne("SELECT count(*) FROM products WHERE \(condition)", [StoredTime.value(cutoff)]) { $0.int(0) } ?? 0
            }
            guard !dryRun, due > 0 else { return due }
            return try await database.write { connection in
                let forgotten = try connection.run("UPDATE products SET images = '' WHERE \(condition)", [StoredTime.value(cutoff)])
                var entry = audit
                entry.detail += ": \(forgotten) listing(s)"
                if forgotten > 0 { try AuditLogTable.insert(entry, on: connection) }
                return forgotten
            }
        }
    }
}
