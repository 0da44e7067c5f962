import Foundation

/// A Postgres schema of the bench's own for one run (`keycat_bench_` and 12 hex digits), so the
/// database's other schemas are never touched: created empty, and dropped when the run ends,
/// also when the bench is stopped (``StopCleanup``).
///
/// A run that cannot clean up (`kill -9`, a crash, a lost machine) is cleaned up by the next one
/// against the same database. Each run holds a session-level advisory lock named after its
/// schema for as long as it lives, taken before the schema exists, and Postgres releases it
/// when the run's connection goes; so a `keycat_bench_…` schema whose lock can be taken belongs
/// to no live run, wherever that run was, and a new run drops it before creating its own.
final class BenchSchema: Sendable {
    let name: String
    private let url: String
    private let onStop: UUID
    /// The connection that holds the run's lock, and nothing else, until the schema is dropped.
    private let lockHolder: RawPostgres

    /// The first key of every run's advisory lock (`KCB1`); the second is the schema's
    /// `hashtext`.
    static let lockClass: Int64 = 0x4B43_4231

    /// Drops what runs that ended without cleaning up left behind, then creates a schema in the
    /// database `url` names.
    init(in url: String) throws {
        let name = "keycat_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let lockHolder = try RawPostgres(url: url)
        for abandoned in try Self.dropAbandoned(through: lockHolder) {
            FileHandle.standardError.write(Data("keycat-bench: dropped schema \(abandoned), left by a run that ended without cleaning up\n".utf8))
        }
        try lockHolder.run("SELECT pg_advisory_lock($1::int4, hashtext($2))", [.int(Self.lockClass), .text(name)])
        try lockHolder.execute("CREATE SCHEMA \(name)")
        self.name = name
        self.url = url
        self.lockHolder = lockHolder
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

    /// Drops every `keycat_bench_…` schema whose run's lock `connection` can take (its run is
    /// gone), and returns their names. A schema whose lock another session holds is a live
    /// run's and is left alone; one that cannot be dropped (another role's) is reported on
    /// stderr and left, so it never stops a run.
    static func dropAbandoned(through connection: RawPostgres) throws -> [String] {
        let found = try connection.run(#"SELECT nspname FROM pg_namespace WHERE nspname ~ '^keycat_bench_[0-9a-f]{12}$' ORDER BY 1"#)
        var dropped: [String] = []
        for row in 0..<found.rows {
            let schema = found.text(row, 0)
            let key: [RawPostgres.Parameter] = [.int(lockClass), .text(schema)]
            let taken = try connection.run("SELECT pg_try_advisory_lock($1::int4, hashtext($2))", key)
            guard taken.text(0, 0) == "t" else { continue }
            defer { _ = try? connection.run("SELECT pg_advisory_unlock($1::int4, hashtext($2))", key) }
            do {
                try connection.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
                dropped.append(schema)
            } catch {
                FileHandle.standardError.write(Data("keycat-bench: left schema \(schema), abandoned but not droppable: \(error)\n".utf8))
            }
        }
        return dropped
    }
}
