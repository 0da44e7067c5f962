/// One numbered schema change, for either store: `Connection` is ``SQLiteConnection`` or
/// ``PostgresConnection`` (``SQLiteMigration``, ``PostgresMigration``).
package struct SchemaMigration<Connection>: Sendable {
    /// The version this migration brings the database to: 1, 2, 3… in order, never reused.
    package let version: Int
    /// A short name recorded beside the version.
    package let name: String
    /// The change, run inside the migration's transaction.
    package let apply: @Sendable (Connection) throws -> Void

    package init(version: Int, name: String, apply: @escaping @Sendable (Connection) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}

/// Why migrating a database failed: one error for both stores (``SQLiteMigrator``,
/// ``PostgresMigrator``), so callers map it once.
package enum SchemaMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
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

    /// Throws unless `migrations` run 1, 2, 3… without gaps.
    static func checkOrder<Connection>(of migrations: [SchemaMigration<Connection>]) throws(SchemaMigrationError) {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw .invalidMigrationList(
                "migration «\(migration.name)» has version \(migration.version), expected \(offset + 1)")
        }
    }

    /// Throws when a database at `version` is newer than the `supported` one, changing nothing.
    static func refuseNewer(_ version: Int, supported: Int) throws(SchemaMigrationError) {
        if version > supported {
            throw .databaseTooNew(databaseVersion: version, supportedVersion: supported)
        }
    }
}
