import CSQLite
import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// Loading generated listings into a fresh database: KeyCat's synthetic seeding against raw
/// batched inserts of the same rows with the same strategy (indexes dropped, rows inserted 5,000
/// per transaction, each with its inventory-ledger movement, indexes rebuilt).
struct BulkLoadScenario {
    let directory: URL
    let rows: Int
    let runs: Int

    func run() async throws -> Comparison {
        var librarySamples: [Double] = []
        var baselineSamples: [Double] = []
        let clock = ContinuousClock()
        for run in 0..<runs {
            let libraryPath = directory.appendingPathComponent("bulk-keycat-\(run).db").path
            let keycat = try await KeyCat.open(.init(databasePath: libraryPath))
            await librarySamples.append(try seconds(clock) {
                _ = try await keycat.seedSynthetic(count: rows, seed: UInt64(run + 1), by: .operatorConsole("bench"))
            } / Double(rows))
            keycat.close()

            let rawPath = directory.appendingPathComponent("bulk-raw-\(run).db").path
            try Self.createSchema(at: rawPath)
            let raw = try RawDatabase(path: rawPath)
            await baselineSamples.append(try seconds(clock) { try Self.rawLoad(raw, rows: rows, seed: UInt64(run + 1)) } / Double(rows))
            for path in [libraryPath, rawPath] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        return Comparison(name: "bulk load (per row, \(rows) rows)", operations: runs,
                          library: Timing(samples: librarySamples), baseline: Timing(samples: baselineSamples),
                          target: .timeRatioAtMost(1.3))
    }

    /// The same schema, through the same migrations.
    static func createSchema(at path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try KeyCatSchema.migrator().migrate(database)
        database.close()
    }

    static func rawLoad(_ raw: RawDatabase, rows: Int, seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let now = Date()
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        // 50 sellers, as the library's synthetic catalog has.
        try raw.execute("BEGIN IMMEDIATE")
        var sellers: [Int64] = []
        for number in 1...50 {
            try raw.execute("INSERT INTO users (email, nick, password_hash, role, created_at, updated_at) VALUES ('raw-\(number)@example.com', 'raw\(number)', '!', 'seller', \(millis), \(millis))")
            sellers.append(sqlite3_last_insert_rowid(raw.handle))
        }
        try raw.execute("COMMIT")
        let indexes = try indexDefinitions(raw)
        let rebuild = rows >= SyntheticCatalog<SQLiteDatabase>.defaultRebuildThreshold
        let insert = try raw.statement("""
            INSERT INTO products (seller_id, kind, category, title, content, regular_price, price,
                coupon_price, discount_ends_at, delivery_fee, delivery_schedule, stock, images,
                spec_input, spec_connection, spec_pcb, spec_switch_type, spec_layout,
                spec_keycap_profile, spec_backlight, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // Each listing's initial stock is its first inventory-ledger movement, as in the library.
        let movement = try raw.statement("""
            INSERT INTO stock_movements (product_id, kind, change, order_id, actor, reason, created_at)
            VALUES (?, 'listed', ?, NULL, 'system', '', ?)
            """)
        var loaded = 0
        var created = millis - Int64(rows) * 1000
        while loaded < rows {
            let batch = min(5_000, rows - loaded)
            try raw.execute("BEGIN IMMEDIATE")
            if loaded == 0 && rebuild { for (name, _) in indexes { try raw.execute("DROP INDEX \(name)") } }
            for _ in 0..<batch {
                let draft = SyntheticProduct.draft(using: &generator)
                let seller = sellers[Int(generator.next() % UInt64(sellers.count))]
                sqlite3_reset(insert)
                sqlite3_bind_int64(insert, 1, seller)
                raw.bindText(insert, 2, draft.kind.rawValue)
                raw.bindText(insert, 3, draft.category.rawValue)
                raw.bindText(insert, 4, draft.title)
                raw.bindText(insert, 5, draft.content)
                sqlite3_bind_int64(insert, 6, draft.pricing.regularPrice.won)
                sqlite3_bind_int64(insert, 7, draft.pricing.salePrice.won)
                sqlite3_bind_int64(insert, 8, draft.pricing.couponPrice.won)
                sqlite3_bind_null(insert, 9)
                sqlite3_bind_int64(insert, 10, draft.delivery.fee.won)
                raw.bindText(insert, 11, draft.delivery.schedule.rawValue)
                sqlite3_bind_int64(insert, 12, Int64(draft.stock))
                raw.bindText(insert, 13, "")
                let spec = draft.spec
                for (index, value) in [spec.input?.rawValue, spec.connection?.rawValue, spec.pcb?.rawValue,
                                       spec.switchType?.rawValue, spec.layout?.rawValue, spec.keycapProfile?.rawValue].enumerated() {
                    if let value { raw.bindText(insert, Int32(14 + index), value) } else { sqlite3_bind_null(insert, Int32(14 + index)) }
                }
                if let backlight = spec.backlight { sqlite3_bind_int64(insert, 20, backlight ? 1 : 0) } else { sqlite3_bind_null(insert, 20) }
                sqlite3_bind_int64(insert, 21, created)
                sqlite3_bind_int64(insert, 22, created)
                guard sqlite3_step(insert) == SQLITE_DONE else { throw RawDatabase.Failure(description: "insert failed") }
                if draft.stock != 0 {
                    sqlite3_reset(movement)
                    sqlite3_bind_int64(movement, 1, sqlite3_last_insert_rowid(raw.handle))
                    sqlite3_bind_int64(movement, 2, Int64(draft.stock))
                    sqlite3_bind_int64(movement, 3, created)
                    guard sqlite3_step(movement) == SQLITE_DONE else { throw RawDatabase.Failure(description: "ledger insert failed") }
                }
                created += 1000
            }
            loaded += batch
            if loaded == rows && rebuild { for (_, sql) in indexes { try raw.execute(sql) } }
            try raw.execute("COMMIT")
        }
    }

    static func indexDefinitions(_ raw: RawDatabase) throws -> [(String, String)] {
        let statement = try raw.statement(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL")
        var indexes: [(String, String)] = []
        while try raw.step(statement) { indexes.append((raw.text(statement, 0), raw.text(statement, 1))) }
        sqlite3_reset(statement)
        return indexes
    }
}
