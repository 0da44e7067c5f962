import Foundation

/// One numbered schema change for Postgres.
package typealias PostgresMigration = SchemaMigration<PostgresConnection>

extension SchemaMigration where Connection == PostgresConnection {
    /// A migration made of SQL statements.
    package init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.execute(sql) }
    }
}

/// Applies numbered migrations and records each in the `schema_migrations` table of the
/// connection's schema, as ``SQLiteMigrator`` does for SQLite.
///
/// Several servers may start at once against one database: migrating holds a session-level
/// advisory lock (`pg_advisory_lock`, keyed on KeyCat and the current schema) from before the
/// table is created until the last migration is recorded, so the others wait and then find
/// nothing left to do; every migration is applied exactly once. Each migration runs in its own
/// transaction with its record, so a failing one leaves the versions before it applied. A
/// database whose recorded version is above the newest known migration is refused before
/// anything is written.
package struct PostgresMigrator: Sendable {
    package let migrations: [PostgresMigration]

    /// The first half of the advisory lock's key: "KCAT" in ASCII. The second half is the hash of
    /// the schema name, so tests migrating their own schemas side by side do not wait on each other.
    private static let lockKey: Int64 = 0x4B43_4154

    package init(migrations: [PostgresMigration]) throws(SchemaMigrationError) {
        try SchemaMigrationError.checkOrder(of: migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.count }

    /// The version recorded in the database: 0 for a new one.
    package func currentVersion(of database: PostgresDatabase) throws -> Int {
        try database.blockingWithConnection { try Self.recordedVersion(on: $0) }
    }

    /// Brings the database up to ``latestVersion``.
    ///
    /// - Returns: the versions applied by this call (empty when already up to date, or when
    ///   another process applied them while this one waited for the lock).
    /// - Throws: ``SchemaMigrationError/databaseTooNew(databaseVersion:supportedVersion:)`` for a
    ///   database from a newer binary; any error a migration throws, after rolling it back.
    @discardableResult
    package func migrate(_ database: PostgresDatabase, now: Date = Date()) throws -> [Int] {
        try database.blockingWithConnection { connection in
            try Self.withMigrationLock(on: connection) {
                let version = try Self.recordedVersion(on: connection)
                try SchemaMigrationError.refuseNewer(version, supported: latestVersion)
                try Self.createTable(on: connection)
                var applied: [Int] = []
                for migration in migrations where migration.version > version {
                    try connection.transaction(isolation: .readCommitted) { connection in
                        try migration.apply(connection)
                        try connection.run(
                            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?::timestamptz)",
                            [.int(migration.version), .text(migration.name),
                             .text(ISO8601DateFormatter().string(from: now))])
                    }
                    applied.append(migration.version)
                }
                return applied
            }
        }
    }

    /// Throws when the database is newer than this binary, without changing anything.
    package func checkCompatible(_ database: PostgresDatabase) throws {
        try SchemaMigrationError.refuseNewer(try currentVersion(of: database), supported: latestVersion)
    }

    /// Runs `body` holding the migration lock of the connection's schema, waiting for it first.
    private static func withMigrationLock<Result>(
        on connection: PostgresConnection, _ body: () throws -> Result
    ) throws -> Result {
        let key = "hashtext(coalesce(current_schema(), ''))"
        try connection.run("SELECT pg_advisory_lock(?::int, \(key))", [.integer(lockKey)])
        // A session lock outlives transactions, so release it whatever happens; a broken
        // connection releases it by ending the session.
        defer { _ = try? connection.run("SELECT pg_advisory_unlock(?::int, \(key))", [.integer(lockKey)]) }
        return try body()
    }


    private static func createTable(on connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                applied_at timestamptz NOT NULL
            )
            """)
    }

    private static func recordedVersion(on connection: PostgresConnection) throws -> Int {
        let exists = try connection.queryOne("SELECT to_regclass('schema_migrations') IS NOT NULL") {
            $0.bool(0)
        } ?? false
        guard exists else { return 0 }
        return try connection.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations") {
            $0.int(0)
        } ?? 0
    }
}
