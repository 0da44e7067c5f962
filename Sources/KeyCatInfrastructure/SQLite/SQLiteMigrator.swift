import Foundation

/// One numbered schema change for SQLite.
package typealias SQLiteMigration = SchemaMigration<SQLiteConnection>

extension SchemaMigration where Connection == SQLiteConnection {
    /// A migration made of SQL statements.
    package init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.execute(sql) }
    }
}

/// SQLite's name for ``SchemaMigrationError``, which both stores' migrators throw.
package typealias SQLiteMigrationError = SchemaMigrationError

/// Applies numbered migrations and records each in the `schema_migrations` table.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction, which re-reads the recorded
/// version first, so two processes migrating the same file at once apply every migration
/// exactly once. A database whose recorded version is above the newest known migration is
/// refused before anything is written.
package struct SQLiteMigrator: Sendable {
    package let migrations: [SQLiteMigration]

    package init(migrations: [SQLiteMigration]) throws(SQLiteMigrationError) {
        try SchemaMigrationError.checkOrder(of: migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.count }

    /// The version recorded in the database: 0 for a new one.
    package func currentVersion(of database: SQLiteDatabase) throws -> Int {
        try database.withWriter { try Self.recordedVersion(on: $0) }
    }

    /// Brings the database up to ``latestVersion``.
    ///
    /// - Returns: the versions applied by this call (empty when already up to date).
    /// - Throws: ``SQLiteMigrationError/databaseTooNew(databaseVersion:supportedVersion:)`` for a
    ///   database from a newer binary; any error a migration throws, after rolling it back.
    @discardableResult
    package func migrate(_ database: SQLiteDatabase, now: Date = Date()) throws -> [Int] {
        try database.withWriter { connection in
            var applied: [Int] = []
            for migration in migrations {
                let didApply = try connection.transaction { connection -> Bool in
                    try Self.createTable(on: connection)
                    let version = try Self.recordedVersion(on: connection)
                    try SchemaMigrationError.refuseNewer(version, supported: latestVersion)
                    guard version < migration.version else { return false }
                    try migration.apply(connection)
                    try connection.run(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        [.int(migration.version), .text(migration.name),
                         .text(ISO8601DateFormatter().string(from: now))])
                    return true
                }
                if didApply { applied.append(migration.version) }
            }
            // With no migrations the loop checked nothing: check the version here.
            if migrations.isEmpty {
                try SchemaMigrationError.refuseNewer(try Self.recordedVersion(on: connection), supported: latestVersion)
            }
            return applied
        }
    }

    /// Throws when the database is newer than this binary, without changing anything.
    package func checkCompatible(_ database: SQLiteDatabase) throws {
        let version = try currentVersion(of: database)
        try SchemaMigrationError.refuseNewer(version, supported: latestVersion)
    }

    private static func createTable(on connection: SQLiteConnection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) STRICT
            """)
    }

    private static func recordedVersion(on connection: SQLiteConnection) throws -> Int {
        let exists = try connection.queryOne(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        ) { _ in true } ?? false
        guard exists else { return 0 }
        return try connection.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations") {
            $0.int(0)
        } ?? 0
    }
}
