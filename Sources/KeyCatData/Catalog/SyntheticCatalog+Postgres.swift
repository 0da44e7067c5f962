import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization

/// A Postgres load's own ways: the search tables' keys it drops and adds back, and the listings
/// written a round trip's worth at a time, analysed on every core while the server waits.
extension SyntheticCatalog {
    /// A primary or foreign key of a search table, as Postgres defines it.
    struct SearchKey: Sendable {
        var table: String
        var name: String
        var definition: String
    }

    /// The primary and foreign keys of the tables a load writes search entries into, for
    /// Postgres (none on SQLite, see ``finish(rebuilding:keys:analysing:search:count:seed:audit:on:)``),
    /// each table's primary key before its foreign keys (no key of another table refers to
    /// these primary keys, so that order is enough). A big load drops them with the indexes, in
    /// its one transaction, and adds them back in its last step:
    /// - adding a foreign key checks every row in one join, where a row inserted under it fires
    ///   a check of its own: measured here for 3.4 million postings, 14.1 s inserted under the
    ///   key against 5.1 s inserted without it and checked after;
    /// - adding a primary key builds its index in one sort, where each row inserted under it is
    ///   a descent of the index, even in key order: 6 million rows, 7.2 s inserted under the key
    ///   against 4.2 s inserted without it and indexed after.
    ///
    /// At a million listings there are 68 million postings.
    static func searchKeys(on connection: Database.Connection) throws -> [SearchKey] {
        guard let query = connection.dialect.keysOfTable else { return [] }
        return try ["search_terms", "search_documents"].flatMap { table in
            try connection.query(query, [.text(table)]) { SearchKey(table: table, name: $0.string(0), definition: $0.string(1)) }
        }
    }

    /// Listings per statement, and statements per round trip, on Postgres.
    private static var rowsPerStatement: Int { 250 }
    private static var statementsPerRoundTrip: Int { 8 }

    /// `count` listings and their ledger rows, as ``ProductRow/insert(_:sellerID:images:at:actor:indexingSearch:on:)``
    /// writes them one by one, but without waiting for each new id: the ids of a round trip's
    /// listings are taken from the sequence first (one statement), then one statement inserts
    /// ``rowsPerStatement`` listings and, in a data-modifying CTE, their `listed` movements, and
    /// ``statementsPerRoundTrip`` such statements travel together. On Postgres, where a
    /// statement that waits for its id is a round trip, this is the difference between two
    /// million round trips for a million listings and a thousand. (SQLite has no such CTE and
    /// no network: it keeps the plain loop.) The ids, times and rows are the loop's; knowing the
    /// ids up front, the search entries are gathered in `search` as the loop would write them.
    static func insertInRoundTrips(
        _ count: Int, sellers: [UserID], generator: inout SplitMix64, from time: inout Date,
        search: inout SearchIndex.Bulk, indexingSearch: Bool, on connection: Database.Connection
    ) throws {
        func sql(rows: Int) -> String {
            let values = Array(repeating: "(?, " + ProductRow.insertRowSQL.dropFirst(), count: rows).joined(separator: ", ")
            return """
                WITH listed AS (\(ProductRow.insertWithIDIntoSQL) VALUES \(values) RETURNING id, stock, created_at)
                INSERT INTO stock_movements (product_id, kind, change, order_id, actor, reason, created_at)
                SELECT id, '\(StockMovement.Kind.listed.rawValue)', stock, NULL, 'system', '', created_at
                FROM listed WHERE stock <> 0
                """
        }
        let full = sql(rows: rowsPerStatement)  // every statement's but the last one's
        var loaded = 0
        while loaded < count {
            let trip = min(rowsPerStatement * statementsPerRoundTrip, count - loaded)
            let ids = try connection.query(
                "SELECT nextval(pg_get_serial_sequence('products', 'id')) FROM generate_series(1, ?)", [.int(trip)]
            ) { $0.int64(0) }.sorted()
            var statements: [SQLStatement<Database.Connection.Row>] = []
            var arguments: [SQLValue] = []
            var rows = 0
            let listings = generate(ids.count, sellers: sellers, generator: &generator)
            if indexingSearch {
                for (id, entry) in zip(ids, analyseInParallel(listings)) { search.add(ProductID(id), entry) }
            }
            for (id, (draft, seller)) in zip(ids, listings) {
                arguments.append(.integer(id))
                arguments += ProductRow.insertArguments(draft, sellerID: seller, images: [], millis: StoredTime.milliseconds(time))
                time.addTimeInterval(1)
                rows += 1
                if rows == rowsPerStatement {
                    statements.append(.run(full, arguments))
                    arguments.removeAll(keepingCapacity: true)
                    rows = 0
                }
            }
            if rows > 0 { statements.append(.run(sql(rows: rows), arguments)) }
            _ = try connection.batch(statements)
            // One transaction may hold the whole load: the entries cannot wait for its end.
            if search.count >= searchFlushSize { try search.write(on: connection) }
            loaded += trip
        }
    }

    /// The listings' search entries, analysed on every core while the caller waits: on Postgres,
    /// whose server has nothing to do meanwhile (on SQLite the writer works while the next
    /// batch is analysed, ``analyse(_:_:)``). The store's thread waits here, as it does for the
    /// server, and no thread of the caller's is held.
    private static func analyseInParallel(_ listings: [(draft: ProductDraft, seller: UserID)]) -> [SearchIndex.Entry] {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, listings.count / 100))
        let entries = Mutex([[SearchIndex.Entry]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = listings.count * part / parts..<listings.count * (part + 1) / parts
            let analysed = listings[range].map(entry)
            entries.withLock { $0[part] = analysed }
        }
        return entries.withLock { $0.flatMap { $0 } }
    }
}
