import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// What the search index costs the writes on Postgres, as ``SearchIndexScenarios`` measures it on
/// SQLite: a listing's create with its search entries against the same create without them, and
/// a seller's edit of one word of a title with its re-index against the same edit without it,
/// KeyCat's code both ways, each with an audit entry. The create is sent as
/// ``SQLProductRepository`` sends it: the row for its id, then the rest, then the `COMMIT` on
/// its own (the search entries' counts may wait for another write's lock, which a `COMMIT`'s
/// exchange must not); without search the rest can carry the `COMMIT`, one round trip fewer.
/// The edit is the listing read, its `UPDATE` (with the search document), then the rest with
/// the `COMMIT`, both ways; it leaves out the repository's read-back and event, the same both
/// ways. Each is timed on loopback and through a ``LatencyRelay`` 1 ms away each way, where
/// round trips are most of a write. Here "keycat" is the write with search and "raw" the write
/// without it (issue 42: ≤ 1.3).
///
/// The listings the baselines write are left without search entries, and their edits
/// unindexed, in the bench's schema, which is dropped after the run; no later row searches.
struct PostgresSearchWriteScenarios {
    let url: String
    let productCount: Int
    let operations: Int
    let log: (String) -> Void

    func run() async throws -> [Comparison] {
        let selection = SearchRowSelection()
        var rows: [Comparison] = []
        let places = [("loopback", false, min(operations, 1_000)), ("1 ms away", true, min(operations, 300))]
        for (number, (place, relaying, count)) in places.enumerated() {
            let write = "write: listing + search entries ÷ listing (Postgres, \(place))"
            let edit = "edit: one word of a title + re-index ÷ the edit (Postgres, \(place))"
            guard selection.selects(write) || selection.selects(edit) else { continue }
            // The relay's thread keeps it for the rest of the process.
            let target = relaying ? try LatencyRelay.relaying(postgresURL: url, delay: .milliseconds(1)).url : url
            let database = try PostgresDatabase(configuration: PostgresConfiguration(url: target))
            defer { database.close() }
            if selection.selects(write) { rows.append(try await self.write(write, count: count, on: database)) }
            if selection.selects(edit) {
                rows.append(try await self.edit(edit, count: count, place: number, of: places.count, on: database))
            }
        }
        return rows
    }

    private func write(_ name: String, count: Int, on database: PostgresDatabase) async throws -> Comparison {
        let seller = try await sellerID(on: database)
        var generator = SplitMix64(seed: 1_003)
        let now = Date()
        func insert(indexing: Bool) async throws {
            let draft = SyntheticProduct.draft(using: &generator)
            try await database.write(isolation: .readCommitted) { connection in
                let (product, rest) = try ProductRow.beginInsert(draft, sellerID: seller, images: [], at: now,
                                                                 actor: "seller:\(seller)", indexingSearch: indexing, on: connection)
                var statements = rest
                statements.append(AuditLogTable.statement(AuditEntry(actor: "seller:\(seller)", action: "product.create",
                                                                     target: "product:\(product.id)", detail: draft.title, at: now)))
                try connection.batch(statements, endingTransaction: !indexing)
            }
        }
        log("\(name)…")
        return try await compare(name, operations: count, warmup: 20, target: .timeRatioAtMost(1.3),
                                 library: { _ in try await insert(indexing: true) }, baseline: { _ in try await insert(indexing: false) })
    }

    /// Adds `재입고` to a title, each call on another listing spread over the catalog; the row
    /// of place `place` of `places` takes the listings whose id leaves that remainder, so no
    /// two rows edit the same listing.
    private func edit(_ name: String, count: Int, place: Int, of places: Int, on database: PostgresDatabase) async throws -> Comparison {
        let warmup = 20
        let wanted = 2 * (count + warmup)
        let stride = productCount / (wanted + 1) / places * places
        guard stride >= places else {
            throw KeyCatError(.internalError, "\(productCount) listings are too few for \(places) rows of \(wanted) edits each")
        }
        let listings = try await database.read { connection in
            try connection.query("SELECT id FROM products WHERE listed = 1 AND id % ? = ? ORDER BY id LIMIT ?",
                                 [.int(stride), .int(place), .int(wanted)]) { ProductID($0.int64(0)) }
                .compactMap { try ProductRow.find($0, on: connection) }
        }
        guard listings.count == wanted else {
            throw KeyCatError(.internalError, "the catalog has \(listings.count) listings to edit, not \(wanted)")
        }
        let now = Date()
        var next = 0
        func edit(reindexing: Bool) async throws {
            var product = listings[next]
            next += 1
            let version = product.version
            product.title += " 재입고"
            let edit = product
            try await database.write { connection in
                let actor = "seller:\(edit.sellerID)"
                var (_, statements) = try ProductRow.beginUpdate(edit, expectedVersion: version, at: now, actor: actor,
                                                                 indexingSearch: reindexing, on: connection)
                statements.append(AuditLogTable.statement(AuditEntry(actor: actor, action: "product.update",
                                                                     target: "product:\(edit.id)", detail: edit.title, at: now)))
                try connection.batch(statements, endingTransaction: true)
            }
        }
        log("\(name)…")
        return try await compare(name, operations: count, warmup: warmup, target: .timeRatioAtMost(1.3),
                                 library: { _ in try await edit(reindexing: true) }, baseline: { _ in try await edit(reindexing: false) })
    }

    private func sellerID(on database: PostgresDatabase) async throws -> UserID {
        UserID(try await database.read { connection in
            try connection.queryOne("SELECT id FROM users WHERE role = 'seller' ORDER BY id LIMIT 1", []) { $0.int64(0) }
        } ?? 1)
    }
}
