import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import keycat_bench

/// The bench's Postgres runs work in a schema of their own and a temporary directory, which they
/// leave behind neither when they finish nor when they are stopped; what a killed run leaves,
/// the next run removes. Serialized: each run removes what dead runs left, so a test's own
/// killed run must not be swept by another test's bench before it has looked.
@Suite(.enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"),
       .timeLimit(.minutes(2)), .serialized)
struct BenchSchemaTests {
    @Test("a schema is created empty and dropped with everything in it")
    func createAndDrop() throws {
        let url = try PostgresTestServer.requireURL()
        let schema = try BenchSchema(in: url)
        try RawPostgres(url: PostgresBench.url(url, searchPath: schema.name)).execute("CREATE TABLE t (x int); INSERT INTO t VALUES (1)")
        #expect(try Self.exists(schema.name, in: url))
        schema.drop()
        #expect(try !Self.exists(schema.name, in: url))
    }

    /// Stopped while it builds its catalog: the drop waits for the load's transaction to end.
    @Test("a bench stopped with Ctrl-C drops its schema, removes its files and exits as interrupted")
    func interruptedBench() async throws {
        let url = try PostgresTestServer.requireURL()
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (status, schema, log) = try await Self.benchStopped(by: SIGINT, url: url, temporary: temporary)
        let name = try #require(schema, "the bench never reached Postgres: \(log)")
        #expect(status == 128 + SIGINT, "\(log)")
        #expect(log.contains("dropping schema \(name)"))
        #expect(try !Self.exists(name, in: url))
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "left in the bench's temporary directory: \(left)")
    }

    /// `kill -9` runs no cleanup: the schema and the directory stay until the next run, which
    /// removes them since nothing holds their locks any more, and leaves a live run's alone.
    @Test("what a bench killed with SIGKILL leaves, the next run removes, and a live run's stays")
    func killedBench() async throws {
        let url = try PostgresTestServer.requireURL()
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (_, schema, log) = try await Self.benchStopped(by: SIGKILL, url: url, temporary: temporary)
        let killed = try #require(schema, "the bench never reached Postgres: \(log)")
        #expect(try Self.exists(killed, in: url))
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.count == 1 && left[0].hasPrefix("keycat-bench-"), "\(left)")

        // The next run: it removes the killed run's directory as it makes its own (the kernel
        // dropped the killed process's lock when it ended), and its schema and directory are a
        // live run's, which no sweep may touch.
        let liveDirectory = try BenchDirectory(in: temporary)
        defer { liveDirectory.remove() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [liveDirectory.url.lastPathComponent])
        #expect(BenchDirectory.removeAbandoned(in: temporary).isEmpty)
        let live = try BenchSchema(in: url)
        defer { live.drop() }

        // The server ends the killed run's sessions, and with them its lock, once it sees their
        // sockets close: at once, but not synchronously with the kill.
        let sweeper = try RawPostgres(url: url)
        let deadline = Date().addingTimeInterval(30)
        while try Self.exists(killed, in: url), Date() < deadline {
            _ = try BenchSchema.dropAbandoned(through: sweeper)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try !Self.exists(killed, in: url))
        #expect(try !BenchSchema.dropAbandoned(through: sweeper).contains(live.name))
        #expect(try Self.exists(live.name, in: url))
    }

    /// Starts a Postgres bench with `TMPDIR` set to `temporary`, sends it `signal` once it has
    /// made its schema, and returns its exit status, the schema's name and what it wrote to stderr.
    private static func benchStopped(by signal: Int32, url: String, temporary: URL) async throws -> (status: Int32, schema: String?, log: String) {
        try await onThread { () throws -> (Int32, String?, String) in
            let bench = try ChildProcess(
                URL(fileURLWithPath: Bundle.main.bundlePath).appendingPathComponent("keycat-bench").path,
                ["--db", url, "--products", "5000", "--only", "catalog"],
                environment: ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 },
                standardError: .pipe)
            let errors = try #require(bench.standardError)
            var log = ""
            var schema: String?
            while schema == nil {
                let data = errors.availableData
                guard !data.isEmpty else { break }
                log += String(decoding: data, as: UTF8.self)
                schema = log.firstMatch(of: /Postgres schema (keycat_bench_[0-9a-f]{12})/).map { String($0.1) }
            }
            bench.signal(signal)
            let rest = bench.finish()
            log += String(decoding: rest.error, as: UTF8.self)
            return (rest.termination.exitStatus ?? -1, schema, log)
        }
    }

    private static func exists(_ schema: String, in url: String) throws -> Bool {
        let result = try RawPostgres(url: url).run("SELECT count(*) FROM pg_namespace WHERE nspname = $1", [.text(schema)])
        return result.int(0, 0) == 1
    }
}
