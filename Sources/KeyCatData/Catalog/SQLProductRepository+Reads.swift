import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A listing's reads: by id, by ids, a page of a browsing sort, a search, and whether a seller
/// may list.
extension SQLProductRepository {
    // The reads on the hot path are specialised for each store here, in this module: callers
    // reach them through `any ProductRepository`, whose witnesses would otherwise run the generic
    // body and decode every column through `SQLRow`'s witness table (about 6% of a page of 20 on
    // SQLite; on Postgres, half the client's decoding time).
    @_specialize(where Database == SQLiteDatabase)
    @_specialize(where Database == PostgresDatabase)
    package func find(_ id: ProductID) async throws(KeyCatError) -> Product? {
        try await storage {
            try await database.readStatement { try ProductRow.find(id, on: $0) }
        }
    }

    @_specialize(where Database == SQLiteDatabase)
    @_specialize(where Database == PostgresDatabase)
    package func find(_ ids: [ProductID]) async throws(KeyCatError) -> [ProductID: Product] {
        guard !ids.isEmpty else { return [:] }
        // One statement whatever the count: the ids travel as a JSON array (SQLite's json_each,
        // Postgres's json_array_elements_text),
        // and each is a primary-key lookup.
        let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        return try await storage {
            try await database.readStatement { connection in
                var found: [ProductID: Product] = [:]
                try connection.forEach(
                    "SELECT \(ProductRow.columns) FROM products WHERE id IN (\(connection.dialect.integersFromJSON))", [.text(list)]
                ) { row in
                    let product = try ProductRow.decode(row)
                    found[product.id] = product
                }
                return found
            }
        }
    }

    @_specialize(where Database == SQLiteDatabase)
    @_specialize(where Database == PostgresDatabase)
    package func list(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Product] {
        if filter.text != nil || filter.tag != nil || sort == .relevance {
            return try await search(filter, sort: sort, after: position, limit: limit).hits.map(\.product)
        }
        let query = ProductListQuery(filter: filter, sort: sort, after: position, limit: limit)
        // Rows are collected with `forEach` into an array typed here, which the compiler
        // specialises; the generic `query` would move each product through value witnesses.
        func read(_ part: ProductListQuery.Part, on connection: some SQLConnection, into rows: inout [Product]) throws {
            try connection.forEach(part.sql, part.arguments) { rows.append(try ProductRow.decode($0)) }
        }
        // Each statement is its own snapshot: no BEGIN/COMMIT around them. The two parts cover
        // disjoint keys, so only a listing whose sort key changes between them could come back
        // twice; it is dropped from the second part. (Between pages, a listing whose key changes
        // moves in the order, as with any keyset pagination; inserts and deletes never disturb
        // the rows that stay.)
        return try await storage {
            try await database.readStatement { connection in
                var rows: [Product] = []
                rows.reserveCapacity(limit)
                if let ties = query.ties {
                    try read(ties, on: connection, into: &rows)
                    guard rows.count < limit else { return rows }
                }
                var rest = query.rest
                rest.arguments[rest.arguments.count - 1] = .int(limit - rows.count)
                let tiedCount = rows.count
                try read(rest, on: connection, into: &rows)
                ProductListQuery.dropRepeats(from: &rows, tiedCount: tiedCount)
                return rows
            }
        }
    }

    package func search(_ filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> SearchPage {
        // Without a text there is no relevance: refused here as the catalog refuses it (a list
        // by relevance would come back to this search).
        guard filter.text != nil || sort != .relevance else { throw .validation("sort", "sort=relevance needs a search text (q)") }
        let windowBudget = searchWindowBudget
        if let text = filter.text {
            return try await storage {
                try await database.readStatement { connection in
                    try SearchExecution.hits(text: text, filter: filter, sort: sort, after: position, limit: limit,
                                             windowBudget: windowBudget, on: connection)
                }
            }
        }
        if let tag = filter.tag {
            return try await storage {
                try await database.readStatement { connection in
                    try SearchExecution.hits(tagged: tag, filter: filter, sort: sort, after: position, limit: limit,
                                             windowBudget: windowBudget, on: connection)
                }
            }
        }
        return SearchPage(hits: try await list(filter, sort: sort, after: position, limit: limit).map { SearchHit(product: $0, key: sort.key(of: $0)) })
    }

    package func isActiveSeller(_ sellerID: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT 1 FROM users WHERE id = ? AND role = 'seller' AND withdrawn_at IS NULL AND suspended_at IS NULL",
                    [.integer(sellerID.rawValue)]) { _ in true } ?? false
            }
        }
    }
}
