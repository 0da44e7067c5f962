import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-bench --db postgres://…`: the catalog reads, the search pages, the cart read and
/// checkout + confirm on a Postgres database, against libpq used directly (``RawPostgres``).
/// Everything happens in a ``BenchSchema`` of its own, created for the run and dropped after it
/// (also on Ctrl-C).
struct PostgresBench {
    let url: String
    let options: KeycatBench.Options
    let directory: URL
    let log: (String) -> Void

    /// The rows, and how long the catalog took to build.
    func run() async throws -> (rows: [Comparison], buildSeconds: Double) {
        let benchSchema = try BenchSchema(in: url)
        defer { benchSchema.drop() }
        let schema = benchSchema.name
        let schemaURL = try Self.url(url, searchPath: schema)

        let simulator = try PGSimulator()
        let tokenKey = try SecureRandom.bytes(count: 32)
        let configuration = try KeycatBench.configuration(
            KeyCat.Configuration(.postgres(url: schemaURL, filesBeside: directory.appendingPathComponent("bench.db").path)),
            simulator: simulator, tokenKey: tokenKey)
        log("building a catalog of \(options.products) products in Postgres schema \(schema)…")
        let buildSeconds = try await seconds(ContinuousClock()) {
            let loader = try await KeyCat.open(configuration)
            defer { loader.close() }
            _ = try await loader.seedSynthetic(count: options.products, seed: 42, by: .operatorConsole("bench"))
        }
        log(String(format: "built in %.1f s", buildSeconds))
        let raw = try RawPostgres(url: schemaURL)
        // A fresh load leaves hint bits unset and autovacuum due: settle both before timing, so
        // neither side pays for them during the first rows.
        try raw.execute("VACUUM ANALYZE")
        // KeyCat reads on fresh connections, as the baseline does: not on the server process that
        // ran the load's one big transaction.
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }

        var rows: [Comparison] = []
        let runs = { (group: String) in options.groups.isEmpty || options.groups.contains(group) }
        if runs("catalog") {
            rows += try await onStorage(of: keycat) {
                try await CatalogScenarios(keycat: keycat, raw: RawPostgresCatalog(database: raw), productCount: options.products,
                                           operations: options.operations).run()
            }
        }
        if runs("search") {
            let connection = try PostgresConnection(url: schemaURL)
            rows += try await onStorage(of: keycat) {
                try await SearchScenarios(
                    keycat: keycat, raw: RawPostgresSearch(database: raw),
                    trace: { filter, position, limit, record in
                        try withoutActuallyEscaping(record) { record in
                            try SearchExecution.hits(text: filter.text!, filter: filter, sort: .relevance, after: position, limit: limit,
                                                     on: connection, trace: { sql, arguments in
                                // Statements traced between the same two exchanges travel in one.
                                record(TracedStatement(sql: sql, arguments: arguments, exchange: connection.roundTripCount))
                            }).hits
                        }
                    },
                    productCount: options.products, operations: options.operations, log: log).run()
            }
            rows += try await onStorage(of: keycat) {
                try await SearchFacetScenarios(keycat: keycat, raw: RawPostgresSearch(database: raw), connection: connection,
                                               operations: options.operations, log: log).run()
            }
            rows += try await PostgresSearchWriteScenarios(url: schemaURL, productCount: options.products,
                                                           operations: options.operations, log: log).run()
            rows.append(try await buildWithoutSearch(against: buildSeconds))
        }
        if runs("commerce") {
            rows += try await onStorage(of: keycat) {
                try await PostgresCommerceScenarios(keycat: keycat, raw: raw, simulator: simulator,
                                                    operations: options.operations).run()
            }
        }
        return (rows, buildSeconds)
    }

    /// The same catalog built without its search index, in a schema of its own: what the index
    /// costs the build on Postgres (issue 42: ≤ 2). Both builds are timed from the empty schema,
    /// as the build with the index is timed from `KeyCat.open`.
    private func buildWithoutSearch(against buildSeconds: Double) async throws -> Comparison {
        let other = try BenchSchema(in: url)
        defer { other.drop() }
        let database = try PostgresDatabase(configuration: PostgresConfiguration(url: try Self.url(url, searchPath: other.name)))
        defer { database.close() }
        return try await SearchIndexScenarios.buildWithoutSearch(options.products, into: database, against: buildSeconds, log: log) {
            try await KeyCatSchema.migrator(on: PostgresConnection.self).suspendingMigrate(database)
        }
    }

    /// `url` with `search_path` set to `schema` for every connection made from it (libpq's
    /// `options` parameter), so KeyCat and the baseline both work inside the schema.
    static func url(_ url: String, searchPath schema: String) throws -> String {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw KeycatBench.UsageFailure(message: "--db takes a postgres:// URL")
        }
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }
}
