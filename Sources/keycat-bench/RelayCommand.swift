import Foundation

/// `keycat-bench relay --db postgres://… --latency-ms N [--schema NAME]`: a Postgres server put
/// "on another host" for programs other than the bench (``LatencyRelay``, each chunk delivered
/// N ms after it arrived, each way). Prints the URL to use instead of `--db` on its first line of output, then relays
/// until it is stopped. With `--schema`, that schema is created afresh first (dropped if it
/// exists) and the printed URL sets it as the search path, so a server started on the URL gets
/// an empty database of its own. `scripts/bench-http --checkout-load` runs it.
struct RelayCommand {
    let url: String
    let latencyMilliseconds: Int
    let schema: String?

    func run() async throws {
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), schema.first?.isLetter == true else {
                throw KeycatBench.UsageFailure(message: "--schema takes a plain identifier (letters, digits, _)")
            }
            let admin = try RawPostgres(url: url)
            try admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
            try admin.execute("CREATE SCHEMA \(schema)")
        }
        // The relay's own threads keep it serving until the process is stopped.
        var relayed = try LatencyRelay.relaying(postgresURL: url, delay: .milliseconds(latencyMilliseconds)).url
        if let schema { relayed = try PostgresBench.url(relayed, searchPath: schema) }
        FileHandle.standardOutput.write(Data((relayed + "\n").utf8))
        while true { try await Task.sleep(for: .seconds(3_600)) }
    }
}
