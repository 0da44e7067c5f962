import Dispatch
import Foundation
import Synchronization

/// A Postgres schema of the bench's own for one run (`keycat_bench_` and 12 hex digits), so the
/// database's other schemas are never touched: created empty, and dropped when the run ends,
/// also when the bench is stopped with Ctrl-C or `kill` (`SIGINT`, `SIGTERM`), which otherwise
/// end the process before any `defer` runs. `kill -9` cannot be caught: its schema stays, for an
/// operator to drop.
final class BenchSchema: Sendable {
    let name: String
    private let url: String

    /// The schemas in use, by name, with the URL to drop each through, for the signal handlers.
    private static let live = Mutex<[String: String]>([:])

    /// Creates a schema in the database `url` names.
    init(in url: String) throws {
        _ = Self.signalSources
        name = "keycat_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        self.url = url
        try RawPostgres(url: url).execute("CREATE SCHEMA \(name)")
        Self.live.withLock { $0[name] = url }
    }

    /// Drops the schema and everything in it (best effort: the run's result stands either way).
    func drop() {
        Self.live.withLock { _ = $0.removeValue(forKey: name) }
        Self.drop(name, through: url)
    }

    private static func drop(_ schema: String, through url: String) {
        try? RawPostgres(url: url).execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    /// Installed once, with the first schema, and kept for the life of the process: on `SIGINT`
    /// or `SIGTERM`, drops every schema still in use and exits as the signal would have (128 +
    /// its number). (Written once, by the lazy initialiser, and never touched again.)
    nonisolated(unsafe) private static let signalSources: [any DispatchSourceSignal] = {
        let queue = DispatchQueue(label: "keycat-bench.signals")
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                for (schema, url) in live.withLock({ $0 }) {
                    // Waits for a transaction of the run's that holds the schema's tables (a
                    // bulk load's, at worst) to end; the run's later statements queue behind it.
                    FileHandle.standardError.write(Data("keycat-bench: stopped; dropping schema \(schema)\n".utf8))
                    drop(schema, through: url)
                }
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }()
}
