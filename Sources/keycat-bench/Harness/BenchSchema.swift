import Foundation

/// A Postgres schema of the bench's own for one run (`keycat_bench_` and 12 hex digits), so the
/// database's other schemas are never touched: created empty, and dropped when the run ends,
/// also when the bench is stopped (``StopCleanup``).
final class BenchSchema: Sendable {
    let name: String
    private let url: String
    private let onStop: UUID

    /// Creates a schema in the database `url` names.
    init(in url: String) throws {
        let name = "keycat_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try RawPostgres(url: url).execute("CREATE SCHEMA \(name)")
        self.name = name
        self.url = url
        onStop = StopCleanup.register {
            // Waits for a transaction of the run's that holds the schema's tables (a bulk
            // load's, at worst) to end; the run's later statements queue behind the drop.
            FileHandle.standardError.write(Data("keycat-bench: stopped; dropping schema \(name)\n".utf8))
            Self.drop(name, through: url)
        }
    }

    /// Drops the schema and everything in it (best effort: the run's result stands either way).
    func drop() {
        StopCleanup.cancel(onStop)
        Self.drop(name, through: url)
    }

    private static func drop(_ schema: String, through url: String) {
        try? RawPostgres(url: url).execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
