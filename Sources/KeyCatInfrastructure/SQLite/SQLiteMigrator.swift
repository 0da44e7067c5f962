import Foundation

/// One numbered schema change.
package struct SQLiteMigration: Sendable {
    /// The version this migration brings the database to: 1, 2, 3… in order, never reused.
    package let version: Int
    /// A short name recorded beside the version.
    package let name: String
    /// The change, run inside the migration's transaction.
    package let apply: @Sendable (SQLiteConnection) throws -> Void

    package init(version: Int, name: String, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }

    /// A migration made of SQL statements.
    package init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.execute(sql) }
    }
}

/// Why migrating failed.
package enum SQLiteMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database was written by a newer binary: it knows migrations this one does not.
    case databaseTooNew(databaseVersion: Int, supportedVersion: Int)
    /// The migration list itself is wrong: versions must run 1, 2, 3… without gaps.
    case invalidMigrationList(String)

    package var description: String {
        switch self {
        case let .databaseTooNew(databaseVersion, supportedVersion):
            "the database is at schema version \(databaseVersion), newer than this build supports "
                + "(\(supportedVersion)); use a newer KeyCat"
        case let .invalidMigrationList(reason):
            "invalid migration list: \(reason)"
        }
    }
}

/// Applies numbered migrations and records each in the `schema_migrations` table.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction, which re-reads the recorded
/// version first, so two processes migrating the same file at once apply every migration
/// exactly once. A database whose recorded version is above the newest known migration is
/// refused before anything is written.
package struct SQLiteMigrator: Sendable {
    package let migrations: [SQLiteMigration]

    package init(migrations: [SQLiteMigration]) throws(SQLiteMigrationError) {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw .invalidMigrationList(
                "migration «\(migration.name)» has version \(migration.version), expected \(offset + 1)")
        }
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
                    try Self.refuseNewer(version, supported: latestVersion)
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
                try Self.refuseNewer(try Self.recordedVersion(on: connection), supported: latestVersion)
            }
            return applied
        }
    }

    /// Throws when the database is newer than this binary, without changing anything.
    package func checkCompatible(_ database: SQLiteDatabase) throws {
        let version = try currentVersion(of: database)
        try Self.refuseNewer(version, supported: latestVersion)
    }

    private static func refuseNewer(_ version: Int, supported: Int) throws(SQLiteMigrationError) {
        if version > supported {
            throw .databaseTooNew(databaseVersion: version, supportedVersion: supported)
        }
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
