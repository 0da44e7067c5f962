import Foundation
import KeyCatInfrastructure

/// What a backup's manifest records of a database snapshot: row counts, and the image files its
/// listings reference. Read on the connection that took the snapshot, so it describes exactly
/// the copy.
package struct BackupInventory: Sendable, Equatable {
    /// Rows per table, for the tables an operator would compare after a restore.
    package var counts: [String: Int]
    /// File names (`<sha256>.<ext>`) of every image a listing references, deleted listings
    /// included (their images stay until the sweep empties their lists, `imageRetention` after,
    /// 30 days by default, and a restore keeps them readable meanwhile).
    package var imageFiles: Set<String>

    package init(counts: [String: Int] = [:], imageFiles: Set<String> = []) {
        self.counts = counts
        self.imageFiles = imageFiles
    }

    /// The tables counted, in the order the manifest lists them.
    package static let countedTables = ["users", "products", "orders", "payments", "refunds", "reviews"]

    /// Reads the inventory on `connection`, which the caller holds in one read transaction.
    package static func read(on connection: some SQLConnection) throws -> BackupInventory {
        var counts: [String: Int] = [:]
        for table in countedTables {
            counts[table] = try connection.queryOne("SELECT count(*) FROM \(table)", []) { $0.int(0) } ?? 0
        }
        var files = Set<String>()
        let lists = try connection.query("SELECT images FROM products WHERE images <> ''", []) { $0.string(0) }
        for list in lists { files.formUnion(list.split(separator: ",").map(String.init)) }
        return BackupInventory(counts: counts, imageFiles: files)
    }

    /// The inventory of the database at `path`, opened read-only in one read transaction
    /// (for checking a restored copy against its manifest).
    package static func read(databaseAt path: String) async throws -> BackupInventory {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        configuration.readerCount = 0
        let database = try SQLiteDatabase(path: path, configuration: configuration)
        defer { database.close() }
        return try await database.read { try read(on: $0) }
    }
}
