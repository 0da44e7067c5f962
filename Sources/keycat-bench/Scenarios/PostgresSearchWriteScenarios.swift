import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

/// What the search index costs the writes on Postgres, as ``SearchIndexScenarios`` measures it on
/// SQLite: a listing's create with its search entries against the same create without them, and
/// a seller's edit of one word of a title with its re-index against the same edit without it,
/// KeyCat's code both ways and in the batches ``SQLProductRepository`` sends (the row for its
/// id, then the rest with the `COMMIT`; an edit's listing read, its `UPDATE`, then the rest).
/// Each is timed on loopback and through a ``LatencyRelay`` 1 ms away each way, where the
/// round trips, the same number both ways, are most of a write. Here "keycat" is the write with
/// search and "raw" the write without it (issue 42: ≤ 1.3).
struct PostgresSearchWriteScenarios {
    let url: String
    let productCount: Int
    let operations: Int
    let log: (String) -> Void

    func run() async throws -> [Comparison] {
        let selection = SearchRowSelection()
        var rows: [Comparison] = []
        let relayed = try LatencyRelay.relaying(postgresURL: url, delay: .milliseconds(1))
        var edited = 0
        for (place, target, count) in [("loopback", url, min(operations, 1_000)), ("1 ms away", relayed.url, min(operations, 300))] {
            let database = try PostgresDatabase(configuration: PostgresConfiguration(url: target))
            defer { database.close() }
            let write = "write: listing + search entries ÷ listing (Postgres, \(place))"
            if selection.selects(write) { rows.append(try await self.write(write, count: count, on: database)) }
            let edit = "edit: one word of a title + re-index ÷ the edit (Postgres, \(place))"
            if selection.selects(edit) { rows.append(try await self.edit(edit, count: count, skipping: &edited, on: database)) }
        }
        withExtendedLifetime(relayed.relay) {}
        return rows
    }

    private func write(_ name: String, count: Int, on database: PostgresDatabase) async throws -> Comparison {
        let seller = try await sellerID(on: database)
        var generator = SplitMix64(seed: 1_003)
        let now = Date()
        func insert(indexing: Bool) async throws {
            let draft = SyntheticProduct.draft(using: &generator)
            try await database.write(isolation: .readCommitted) { connection in
                let product = try ProductRow.insertRow(draft, sellerID: seller, images: [], at: now, on: connection)
                var statements = ProductRow.completion(of: product, actor: "seller:\(seller)", indexingSearch: indexing, on: connection)
                statements.append(AuditLogTable.statement(AuditEntry(actor: "seller:\(seller)", action: "product.create",
                                                                     target: "product:\(product.id)", detail: draft.title, at: now)))
                try connection.batch(statements, endingTransaction: true)
            }
        }
        log("\(name)…")
        return try await compare(name, operations: count, warmup: 20, target: .timeRatioAtMost(1.3),
                                 library: { _ in try await insert(indexing: true) }, baseline: { _ in try await insert(indexing: false) })
    }

    /// Adds `재입고` to a title, each call on another listing spread over the catalog (`skipping`
    /// those an earlier row edited).
    private func edit(_ name: String, count: Int, skipping edited: inout Int, on database: PostgresDatabase) async throws -> Comparison {
        let warmup = 20
        let wanted = 2 * (count + warmup)
        let stride = max(1, productCount / (2 * wanted + 1))
        let offset = edited
        let listings = try await database.read { connection in
            try connection.query("SELECT id FROM products WHERE listed = 1 AND id % ? = ? ORDER BY id LIMIT ?",
                                 [.int(stride), .int(offset % stride), .int(wanted)]) { ProductID($0.int64(0)) }
                .compactMap { try ProductRow.find($0, on: connection) }
        }
        guard listings.count == wanted else {
            throw KeyCatError(.internalError, "the catalog has \(listings.count) listings to edit, not \(wanted)")
        }
        edited += 1
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
