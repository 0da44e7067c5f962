import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-bench [--db postgres://…] [--products N] [--bulk N] [--operations N] [--keys N] [--only GROUP]… [--json]`:
/// times KeyCat's use cases against a raw-SQLite baseline (with `--db` or `$KEYCAT_BENCH_DB`, a
/// raw-libpq one on that Postgres database) doing the same work in the same process
/// (architecture §9). The ratios are the figures that matter; absolute times vary from machine
/// to machine. `keycat-bench concurrency …` measures checkout throughput instead
/// (``ConcurrencyBench``).
@main
enum KeycatBench {
    struct Options {
        var products = 1_000_000
        var bulkRows = 100_000
        var operations = 2_000
        /// Idempotency keys in the table for the `idempotency` group's row.
        var idempotencyKeys = 1_000_000
        var json = false
        /// A `postgres://` URL: run the catalog and commerce groups there, against libpq.
        var databaseURL: String? = ProcessInfo.processInfo.environment["KEYCAT_BENCH_DB"].flatMap { $0.isEmpty ? nil : $0 }
        /// `keycat-bench concurrency`: the throughput table instead of the comparisons.
        var concurrency = false
        /// Orders per cell of the concurrency table.
        var concurrencyOrders = 400
        /// `--latency-ms`: the Postgres server reached through ``LatencyRelay``, this many
        /// milliseconds away each way.
        var latencyMilliseconds: Int?
        /// `keycat-bench relay`: relay `databaseURL` with `latencyMilliseconds` (``RelayCommand``).
        var relay = false
        /// `--schema`, for the relay: a schema created afresh and set as the relayed URL's search path.
        var relaySchema: String?
        /// Run only these groups: catalog, search, commerce, idempotency, crypto, bulk (all when empty).
        var groups: Set<String> = []
    }

    static func main() async {
        do {
            let options = try parse(Array(CommandLine.arguments.dropFirst()))
            try await run(options)
            StopCleanup.yieldToStop()
        } catch let usage as UsageFailure {
            FileHandle.standardError.write(Data("keycat-bench: \(usage.message)\nusage: keycat-bench [--db postgres://…] [--products N] [--bulk N] [--operations N] [--keys N] [--only catalog|search|commerce|idempotency|crypto|bulk] [--json]\n       keycat-bench concurrency [--db postgres://…] [--latency-ms N] [--orders N] [--json]\n       keycat-bench relay --db postgres://… --latency-ms N [--schema NAME]\n".utf8))
            exit(2)
        } catch {
            StopCleanup.yieldToStop()
            FileHandle.standardError.write(Data("keycat-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    struct UsageFailure: Error { var message: String }

    static func parse(_ words: [String]) throws -> Options {
        var options = Options()
        var index = 0
        if words.first == "concurrency" {
            options.concurrency = true
            index = 1
        } else if words.first == "relay" {
            options.relay = true
            index = 1
        }
        func value() throws -> Int {
            index += 1
            guard index < words.count, let number = Int(words[index]), number > 0 else {
                throw UsageFailure(message: "\(words[index - 1]) needs a positive whole number")
            }
            return number
        }
        while index < words.count {
            switch words[index] {
            case "--products": options.products = try value()
            case "--bulk": options.bulkRows = try value()
            case "--operations": options.operations = try value()
            case "--keys": options.idempotencyKeys = try value()
            case "--orders" where options.concurrency: options.concurrencyOrders = try value()
            case "--latency-ms" where options.concurrency || options.relay: options.latencyMilliseconds = try value()
            case "--schema" where options.relay:
                index += 1
                guard index < words.count, !words[index].isEmpty else { throw UsageFailure(message: "--schema needs a name") }
                options.relaySchema = words[index]
            case "--json": options.json = true
            case "--db":
                index += 1
                guard index < words.count, !words[index].isEmpty else { throw UsageFailure(message: "--db needs a postgres:// URL") }
                options.databaseURL = words[index]
            case "--only":
                index += 1
                guard index < words.count, ["catalog", "search", "commerce", "idempotency", "crypto", "bulk"].contains(words[index]) else {
                    throw UsageFailure(message: "--only takes catalog, search, commerce, idempotency, crypto or bulk")
                }
                options.groups.insert(words[index])
            case "--help", "-h": throw UsageFailure(message: "times KeyCat against raw SQLite or libpq")
            default: throw UsageFailure(message: "unknown option \(words[index])")
            }
            index += 1
        }
        return options
    }

    static func run(_ options: Options) async throws {
        if options.relay {
            guard let url = options.databaseURL, let latency = options.latencyMilliseconds else {
                throw UsageFailure(message: "relay needs --db postgres://… and --latency-ms N")
            }
            return try await RelayCommand(url: url, latencyMilliseconds: latency, schema: options.relaySchema).run()
        }
        let benchDirectory = try BenchDirectory()
        let directory = benchDirectory.url
        let removeOnStop = StopCleanup.register { benchDirectory.remove() }
        defer {
            StopCleanup.cancel(removeOnStop)
            benchDirectory.remove()
        }
        let log = { (line: String) in if !options.json { FileHandle.standardError.write(Data((line + "\n").utf8)) } }

        if options.concurrency {
            return try await ConcurrencyBench(options: options, directory: directory, log: log).run()
        }
        if let url = options.databaseURL {
            let groups = options.groups.subtracting(["catalog", "search", "commerce"])
            guard groups.isEmpty else {
                throw UsageFailure(message: "with --db, only the catalog, search and commerce groups run (not \(groups.sorted().joined(separator: ", ")))")
            }
            let (rows, buildTime) = try await PostgresBench(url: url, options: options, directory: directory, log: log).run()
            return report(rows, options: options, buildTime: buildTime, store: "postgres")
        }
        let tokenKey = try SecureRandom.bytes(count: 32)
        let simulator = try PGSimulator()
        let configuration = try Self.configuration(
            KeyCat.Configuration(databasePath: directory.appendingPathComponent("bench.db").path),
            simulator: simulator, tokenKey: tokenKey)
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        let clock = ContinuousClock()
        log("building a catalog of \(options.products) products…")
        let buildTime = try await seconds(clock) {
            _ = try await keycat.seedSynthetic(count: options.products, seed: 42, by: .operatorConsole("bench"))
        }
        log(String(format: "built in %.1f s", buildTime))
        let raw = try RawDatabase(path: configuration.databasePath)

        var rows: [Comparison] = []
        let runs = { (group: String) in options.groups.isEmpty || options.groups.contains(group) }
        if runs("catalog") {
            rows += try await onStorage(of: keycat) {
                try await CatalogScenarios(keycat: keycat, raw: RawCatalog(database: raw), productCount: options.products,
                                           operations: options.operations).run()
            }
        }
        if runs("search") {
            let connection = try SQLiteConnection(path: configuration.databasePath, configuration: SQLiteConfiguration(), readOnly: true)
            rows += try await onStorage(of: keycat) {
                try await SearchScenarios(
                    keycat: keycat, raw: RawSearch(database: raw),
                    trace: { filter, position, limit, record in
                        try withoutActuallyEscaping(record) { record in
                            try SearchExecution.hits(text: filter.text!, filter: filter, sort: .relevance, after: position, limit: limit,
                                                     on: connection, trace: { record(TracedStatement(sql: $0, arguments: $1)) }).hits
                        }
                    },
                    productCount: options.products, operations: options.operations, log: log).run()
            }
            rows += try await onStorage(of: keycat) {
                try await SearchFacetScenarios(keycat: keycat, raw: RawSearch(database: raw), connection: connection,
                                               operations: options.operations, log: log).run()
            }
            rows += try await SearchIndexScenarios(databasePath: configuration.databasePath, directory: directory,
                                                   productCount: options.products, buildSeconds: buildTime,
                                                   operations: options.operations, log: log).run()
        }
        if runs("crypto") {
            rows += try await onStorage(of: keycat) {
                try await CryptoScenarios(keycat: keycat, tokenKey: tokenKey, operations: options.operations).run()
            }
        }
        if runs("commerce") {
            var normal = configuration
            normal.store.sqlite?.durability = .normal
            let normalKeycat = try await KeyCat.open(normal)
            defer { normalKeycat.close() }
            rows += try await onStorage(of: keycat) {
                try await CommerceScenarios(
                    keycat: keycat, normalKeycat: normalKeycat, raw: raw,
                    normalRaw: try RawDatabase(path: configuration.databasePath, synchronous: "NORMAL"),
                    simulator: simulator, operations: options.operations).run()
            }
        }
        if runs("idempotency") {
            rows.append(try await IdempotencyScenario(
                directory: directory, simulator: simulator, keyCount: options.idempotencyKeys,
                operations: max(50, options.operations / 10), log: log).run())
        }
        if runs("bulk") {
            log("bulk loading \(options.bulkRows) rows, 3 runs each…")
            await rows.append(try BulkLoadScenario(directory: directory, rows: options.bulkRows, runs: 3).run())
        }

        report(rows, options: options, buildTime: buildTime, store: "sqlite")
    }

    /// A zero-latency, in-memory PG shared by both sides; toggles unthrottled, since the bench
    /// measures storage, not the per-user rate limit; gateway logging off on both sides.
    static func configuration(_ base: KeyCat.Configuration, simulator: PGSimulator, tokenKey: [UInt8]) throws -> KeyCat.Configuration {
        var configuration = base
        configuration.tokenSigningKey = try SecretKey(bytes: tokenKey)
        configuration.paymentGateway = .simulator(simulator)
        configuration.gatewayLog = DiscardingLogSink()
        configuration.toggleRateLimit = nil
        // One buyer places thousands of orders as fast as it can: the per-buyer caps are off, as
        // in the raw baseline.
        configuration.stockHolds = nil
        return configuration
    }

    static func report(_ rows: [Comparison], options: Options, buildTime: Double, store: String) {
        let info = [
            "date": ISO8601DateFormatter().string(from: Date()),
            "store": store,
            "products": String(options.products),
            "catalog_build_seconds": String(format: "%.1f", buildTime),
            "cores": String(ProcessInfo.processInfo.activeProcessorCount),
        ]
        if options.json {
            print(Report.json(rows, info: info))
        } else {
            print(Report.table(rows))
            print(String(format: "\ncatalog of %d products built in %.1f s; %d of %d rows meet their target.",
                         options.products, buildTime, rows.filter(\.meetsTarget).count, rows.count))
        }
    }
}
