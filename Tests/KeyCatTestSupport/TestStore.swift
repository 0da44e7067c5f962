import Foundation
package import KeyCatInfrastructure

/// Where a test keeps KeyCat's rows: every end-to-end suite that takes it runs on both.
package enum TestStore: String, CaseIterable, Sendable {
    case sqlite
    case postgres

    /// Both stores, Postgres only when a server is configured (always under CI).
    package static var allCases: [TestStore] {
        PostgresTestServer.isConfigured || PostgresTestServer.isCI ? [.sqlite, .postgres] : [.sqlite]
    }
}

extension PostgresConfiguration {
    /// The test server's URL with this configuration's schema as the search path: what a
    /// `KeyCat.Configuration.Database.postgres(url:filesBeside:)` takes to open KeyCat in that schema.
    package func schemaURL() throws -> String {
        let url = try PostgresTestServer.requireURL()
        let separator = url.contains("?") ? "&" : "?"
        return url + separator + "options=-csearch_path%3D" + (searchPath ?? "public")
    }
}

extension TestStore {
    /// Runs `body` with `count` handles on one fresh, empty database of this store, each with
    /// connections of its own, as separate processes or servers would have: a temporary SQLite
    /// file, or a Postgres schema of its own (``withPostgresSchema(_:)``).
    ///
    /// The handles are all of one concrete type; a test opens the first into a generic function
    /// (`try await check($0[0])`) and casts the others to its type.
    package func withDatabases(
        _ count: Int = 1, _ body: ([any SQLDatabase]) async throws -> Void
    ) async throws {
        switch self {
        case .sqlite:
            try await withTemporaryDirectory { directory async throws in
                let path = directory.appendingPathComponent("contract.db").path
                let databases = try (0..<count).map { _ in try SQLiteDatabase(path: path) }
                defer { databases.forEach { $0.close() } }
                try await body(databases)
            }
        case .postgres:
            try await withPostgresSchema { configuration in
                let databases = try (0..<count).map { _ in try PostgresDatabase(configuration: configuration) }
                defer { databases.forEach { $0.close() } }
                try await body(databases)
            }
        }
    }
}
