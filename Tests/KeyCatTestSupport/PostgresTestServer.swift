import Foundation
package import KeyCatInfrastructure

/// The Postgres server the tests run against: `KEYCAT_TEST_POSTGRES_URL`, which `scripts/test`
/// sets (starting a local server with `scripts/postgres` when it is unset).
///
/// Without it the Postgres suites are skipped, except under CI (`CI=true`), where
/// `PostgresServerTests` fails the run instead: a suite that skips in silence tests nothing.
package enum PostgresTestServer {
    /// The server's URL, when one is configured.
    package static var url: String? {
        guard let url = ProcessInfo.processInfo.environment["KEYCAT_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }

    /// Whether a server is configured, for `.enabled(if:)` on the Postgres suites.
    package static var isConfigured: Bool { url != nil }

    /// Whether this is a CI run, where every suite must run.
    package static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Why a suite was skipped, for the `.enabled(if:)` comment.
    package static let skipReason = "KEYCAT_TEST_POSTGRES_URL is not set (scripts/test sets it)"

    /// The configured URL, or an error saying it is missing.
    package static func requireURL() throws -> String {
        guard let url else { throw MissingServer() }
        return url
    }

    struct MissingServer: Error, CustomStringConvertible {
        var description: String { "no Postgres server: \(PostgresTestServer.skipReason)" }
    }
}

/// How many tests work in Postgres schemas of their own at once.
///
/// Swift Testing starts every test at once, and each Postgres test holds an administrative
/// connection, a pool of up to four and sometimes child processes with pools of their own: on a
/// slow machine enough of them overlapped to use up the server's 300 connections. A test that
/// already holds a turn (a schema inside a schema, or its child tasks) takes no second one.
private enum SchemaTurns {
    static let permits = AsyncPermits(24)
    @TaskLocal static var held = false
}

/// Runs `body` with a configuration whose `search_path` is a fresh schema of its own, dropped with
/// everything in it when `body` returns or throws. Tests using it run side by side without
/// seeing each other's tables, and leave nothing behind; at most 24 at once (``SchemaTurns``).
package func withPostgresSchema<Result>(
    _ body: (PostgresConfiguration) async throws -> Result
) async throws -> Result {
    if SchemaTurns.held { return try await inFreshSchema(body) }
    try await SchemaTurns.permits.acquire()
    defer { SchemaTurns.permits.release() }
    return try await SchemaTurns.$held.withValue(true) { try await inFreshSchema(body) }
}

/// ``withPostgresSchema(_:)`` without waiting for a turn.
private func inFreshSchema<Result>(_ body: (PostgresConfiguration) async throws -> Result) async throws -> Result {
    let url = try PostgresTestServer.requireURL()
    let schema = "keycat_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let admin = try PostgresConnection(url: url)
    defer { admin.close() }
    try admin.execute("CREATE SCHEMA \(schema)")
    do {
        var configuration = PostgresConfiguration(url: url)
        configuration.searchPath = schema
        let result = try await body(configuration)
        try admin.execute("DROP SCHEMA \(schema) CASCADE")
        return result
    } catch {
        try? admin.execute("DROP SCHEMA \(schema) CASCADE")
        throw error
    }
}

/// Runs `body` with a pool over a fresh schema (see ``withPostgresSchema(_:)``), closed before
/// the schema is dropped. `configure` adjusts the configuration first.
package func withPostgresDatabase<Result>(
    configure: (inout PostgresConfiguration) -> Void = { _ in },
    _ body: (PostgresDatabase) async throws -> Result
) async throws -> Result {
    try await withPostgresSchema { configuration in
        var configuration = configuration
        configure(&configuration)
        let database = try PostgresDatabase(configuration: configuration)
        defer { database.close() }
        return try await body(database)
    }
}
