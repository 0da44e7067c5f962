import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-bench [--products N] [--bulk N] [--operations N] [--keys N] [--only GROUP]… [--json]`: times KeyCat's use cases
/// against a raw-SQLite baseline doing the same work in the same process (architecture §9). The
/// ratios are the figures that matter; absolute times vary from machine to machine.
@main
enum KeycatBench {
    struct Options {
        var products = 1_000_000
        var bulkRows = 100_000
        var operations = 2_000
        /// Idempotency keys in the table for the `idempotency` group's row.
        var idempotencyKeys = 1_000_000
        var json = false
        /// Run only these groups: catalog, commerce, idempotency, crypto, bulk (all when empty).
        var groups: Set<String> = []
    }

    static func main() async {
        do {
            let options = try parse(Array(CommandLine.arguments.dropFirst()))
            try await run(options)
        } catch let usage as UsageFailure {
            FileHandle.standardError.write(Data("keycat-bench: \(usage.message)\nusage: keycat-bench [--products N] [--bulk N] [--operations N] [--keys N] [--only catalog|commerce|idempotency|crypto|bulk] [--json]\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("keycat-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    struct UsageFailure: Error { var message: String }

    static func parse(_ words: [String]) throws -> Options {
        var options = Options()
        var index = 0
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
            case "--json": options.json = true
            case "--only":
                index += 1
                guard index < words.count, ["catalog", "commerce", "idempotency", "crypto", "bulk"].contains(words[index]) else {
                    throw UsageFailure(message: "--only takes catalog, commerce, idempotency, crypto or bulk")
                }
                options.groups.insert(words[index])
            case "--help", "-h": throw UsageFailure(message: "times KeyCat against raw SQLite")
            default: throw UsageFailure(message: "unknown option \(words[index])")
            }
            index += 1
        }
        return options
    }

    static func run(_ options: Options) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = { (line: String) in if !options.json { FileHandle.standardError.write(Data((line + "\n").utf8)) } }

        let tokenKey = try SecureRandom.bytes(count: 32)
        // A zero-latency, in-memory PG shared by both sides; toggles unthrottled, since the bench
        // measures storage, not the per-user rate limit; gateway logging off on both sides.
        let simulator = try PGSimulator()
        var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("bench.db").path)
        configuration.tokenSigningKey = try SecretKey(bytes: tokenKey)
        configuration.paymentGateway = .simulator(simulator)
        configuration.gatewayLog = DiscardingLogSink()
        configuration.toggleRateLimit = nil
        let keycat = try KeyCat.open(configuration)
        defer { keycat.close() }
        let clock = ContinuousClock()
        log("building a catalog of \(options.products) products…")
        let buildTime = try seconds(clock) {
            _ = try keycat.seedSynthetic(count: options.products, seed: 42, by: .operatorConsole("bench"))
        }
        log(String(format: "built in %.1f s", buildTime))
        let raw = try RawDatabase(path: configuration.databasePath)

        var rows: [Comparison] = []
        let runs = { (group: String) in options.groups.isEmpty || options.groups.contains(group) }
        if runs("catalog") {
            rows += try CatalogScenarios(keycat: keycat, raw: RawCatalog(database: raw), productCount: options.products,
                                         operations: options.operations).run()
        }
        if runs("crypto") {
            rows += try CryptoScenarios(keycat: keycat, tokenKey: tokenKey, operations: options.operations).run()
        }
        if runs("commerce") {
            var normal = configuration
            normal.durability = .normal
            let normalKeycat = try KeyCat.open(normal)
            defer { normalKeycat.close() }
            rows += try await CommerceScenarios(
                keycat: keycat, normalKeycat: normalKeycat, raw: raw,
                normalRaw: try RawDatabase(path: configuration.databasePath, synchronous: "NORMAL"),
                simulator: simulator, operations: options.operations).run()
        }
        if runs("idempotency") {
            rows.append(try await IdempotencyScenario(
                directory: directory, simulator: simulator, keyCount: options.idempotencyKeys,
                operations: max(50, options.operations / 10), log: log).run())
        }
        if runs("bulk") {
            log("bulk loading \(options.bulkRows) rows, 3 runs each…")
            rows.append(try BulkLoadScenario(directory: directory, rows: options.bulkRows, runs: 3).run())
        }

        let info = [
            "date": ISO8601DateFormatter().string(from: Date()),
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
