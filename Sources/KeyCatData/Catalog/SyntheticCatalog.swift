import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Generates large, plausible catalogs fast, for benchmarks and load tests: the same seed gives
/// the same catalog. Products go in batches of 5,000 per transaction; for big loads the list
/// indexes are dropped first and rebuilt at the end (one sort per index instead of a million
/// scattered inserts) inside the last batch's transaction.
///
/// Crash safety: the drop commits with the first batch, so a load killed in between leaves the
/// indexes missing. That state is durable and self-describing: the indexes are named by the
/// migrations (``ExpectedSchema``), `db check` reports each one missing, and every write-open
/// (`init`, the next `seed`, any server start) recreates them in one transaction.
package struct SyntheticCatalog: Sendable {
    /// At this many products or more, indexes are rebuilt rather than kept up to date.
    package static let rebuildThreshold = 50_000
    private static let batchSize = 5_000
    private static let sellerCount = 50
    private let database: SQLiteDatabase

    package init(database: SQLiteDatabase) { self.database = database }

    /// Adds `count` generated listings (and up to 50 synthetic sellers).
    ///
    /// - Parameter progress: called after each batch with the number loaded so far.
    package func load(count: Int, seed: UInt64, at now: Date, audit: AuditEntry,
                      progress: (Int) -> Void = { _ in }) throws(KeyCatError) -> SeedReport {
        var generator = SplitMix64(seed: seed)
        var report = SeedReport()
        let rebuild = count >= Self.rebuildThreshold
        let indexSQL: [String] = rebuild ? try storage { try database.read { connection in
            try connection.query(
                "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL") { $0.string(0) }
        } } : []
        let indexNames = indexSQL.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
        let sellerIDs: [UserID] = try storage { try database.write { connection in
            try (1...Self.sellerCount).map { number in
                let seller = SeedSeller(email: "synthetic-seller-\(number)@example.com", nick: "합성셀러\(number)")
                let (id, created) = try CatalogSeeder<SQLiteDatabase>.ensureSeller(seller, at: now, on: connection)
                if created { report.sellersCreated += 1 } else { report.sellersExisting += 1 }
                return id
            }
        } }
        var loaded = 0
        var baseTime = now.addingTimeInterval(-Double(count))  // one listing a second up to now
        while loaded < count {
            let batch = min(Self.batchSize, count - loaded)
            let isFirst = loaded == 0
            let isLast = loaded + batch == count
            let final = report
            report = try storage { try database.write { connection in
                if rebuild && isFirst {
                    for name in indexNames { try connection.execute("DROP INDEX \(name)") }
                }
                for _ in 0..<batch {
                    let draft = SyntheticProduct.draft(using: &generator)
                    let seller = sellerIDs[Int(generator.next() % UInt64(sellerIDs.count))]
                    _ = try ProductRow.insert(draft, sellerID: seller, images: [], at: baseTime, on: connection)
                    baseTime.addTimeInterval(1)
                }
                var updated = final
                updated.productsCreated += batch
                if rebuild && isLast {
                    for sql in indexSQL { try connection.execute(sql) }
                }
                if isLast {
                    var entry = audit
                    entry.detail = "\(count) synthetic products (seed \(seed))"
                    try AuditLogTable.insert(entry, on: connection)
                }
                return updated
            } }
            loaded += batch
            progress(loaded)
        }
        return report
    }
}

/// A small, fast, seedable generator (SplitMix64), so synthetic catalogs are reproducible.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
