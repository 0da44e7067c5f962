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
