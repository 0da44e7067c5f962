import Foundation

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

/// One numbered schema change for SQLite.
package typealias SQLiteMigration = SchemaMigration<SQLiteConnection>

/// One numbered schema change for Postgres.
package typealias PostgresMigration = SchemaMigration<PostgresConnection>

extension SchemaMigration where Connection: SQLConnection {
    /// A migration made of SQL statements.
    package init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.execute(sql) }
    }
}

/// Applies numbered migrations, on either store, and records each in the `schema_migrations`
/// table (of the connection's schema, on Postgres).
///
/// Several processes may migrate one database at once (servers starting together): each
/// migration runs in a transaction of its own that first takes the store's migration lock
/// (``SQLDialect/schemaMigrationLock``: SQLite's `BEGIN IMMEDIATE` already is one; Postgres
/// takes an advisory lock until the transaction ends), then reads the recorded version again,
/// so the others wait and find that migration done: every migration is applied exactly once.
/// They wait as long as ``lockWait``, not only the store's own lock wait (SQLite's busy timeout
/// of five seconds, the `lock_timeout` of two seconds each migration sets on Postgres), since a
/// migration may rewrite a large table for minutes. A
/// failing migration rolls back with its record and leaves the ones before it applied. A
/// database whose recorded version is above the newest known migration is refused before
/// anything is written.
///
/// An up-to-date database costs one read of its version and no transaction: what every server
/// but the first pays at start.
package struct SchemaMigrator<Connection: SQLConnection>: Sendable {
    package let migrations: [SchemaMigration<Connection>]

    /// How long ``migrate(_:now:)`` waits for the lock before a migration, against another
    /// connection holding it: ten minutes by default. Each attempt waits the store's own lock
    /// wait, and the migration's transaction is begun again until this much time has passed.
    package var lockWait: Duration = .seconds(600)

    package init(migrations: [SchemaMigration<Connection>]) throws(SchemaMigrationError) {
        try SchemaMigrationError.checkOrder(of: migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.count }

    /// The version recorded in the database (0 for a new one), read as any read is, waiting for a
    /// connection suspended: for a running database.
    package func recordedVersion<Database: SQLDatabase>(in database: Database) async throws -> Int
    where Database.Connection == Connection {
        try await database.readStatement { try Self.recordedVersion(on: $0) }
    }

    /// The version recorded in the database: 0 for a new one. On the calling thread, waiting there
    /// for the writer: for opening and migrating, before the database serves anyone.
    package func currentVersion<Database: SQLDatabase>(of database: Database) throws -> Int
    where Database.Connection == Connection {
        try database.blockingWithConnection { try Self.recordedVersion(on: $0) }
    }

    /// Throws when the database is newer than this binary, without changing anything.
    package func checkCompatible<Database: SQLDatabase>(_ database: Database) throws
    where Database.Connection == Connection {
        try SchemaMigrationError.refuseNewer(try currentVersion(of: database), supported: latestVersion)
    }

    /// Brings the database up to ``latestVersion``, on the calling thread, waiting there for the
    /// writer, for each migration and for other processes' migrations: for tools and tests. A
    /// store's opening calls ``suspendingMigrate(_:now:)``.
    ///
    /// - Returns: the versions applied by this call (empty when already up to date, or when
    ///   another process applied them while this one waited for the lock).
    /// - Throws: ``SchemaMigrationError/databaseTooNew(databaseVersion:supportedVersion:)`` for a
    ///   database from a newer binary; ``SchemaMigrationError/lockWaitExpired(version:waited:)``
    ///   when another connection held the lock for all of ``lockWait``; any error a migration
    ///   throws, after rolling it back.
    @discardableResult
    package func migrate<Database: SQLDatabase>(_ database: Database, now: Date = Date()) throws -> [Int]
    where Database.Connection == Connection {
        try database.blockingWithConnection { try migrate(on: $0, now: now) }
    }

    /// ``migrate(_:now:)`` on the database's own threads (``SQLDatabase/withConnection(_:)``), the
    /// caller suspended: what a store's opening calls, since migrating, or waiting up to
    /// ``lockWait`` for another process's migration, may take minutes and must not hold a
    /// thread the caller's other tasks share.
    @discardableResult
    package func suspendingMigrate<Database: SQLDatabase>(_ database: Database, now: Date = Date()) async throws -> [Int]
    where Database.Connection == Connection {
        try await database.withConnection { try migrate(on: $0, now: now) }
    }

    private func migrate(on connection: Connection, now: Date) throws -> [Int] {
        let version = try Self.recordedVersion(on: connection)
        try SchemaMigrationError.refuseNewer(version, supported: latestVersion)
        var applied: [Int] = []
        for migration in migrations where migration.version > version {
            if try apply(migration, on: connection, now: now) { applied.append(migration.version) }
        }
        return applied
    }

    /// Applies `migration` in a transaction of its own, unless another process applied it while
    /// this one waited for the lock; returns whether this call applied it. A wait for the lock
    /// that runs out (the store's own lock wait) is begun again until ``lockWait`` has passed.
    private func apply(_ migration: SchemaMigration<Connection>, on connection: Connection, now: Date) throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + lockWait
        // Between tries the pause doubles up to two seconds: on Postgres each try queues the
        // lock a migration's ALTER TABLE needs, and every other query of the table queues
        // behind it, so tries close together would hold those queries up nearly all the time.
        var pause = 0.05
        while true {
            do {
                return try connection.transaction(isolation: .readCommitted) { connection -> Bool in
                    // Under the lock, each statement sees what was committed before it began:
                    // another process's migration, finished while this one waited.
                    if let wait = connection.dialect.schemaMigrationLockWait { try connection.execute(wait) }
                    if let lock = connection.dialect.schemaMigrationLock { try connection.run(lock, []) }
                    try connection.execute(connection.dialect.schemaMigrationsTable)
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
            } catch let error as any DatabaseError where error.isLockWaitExpired {
                // The transaction rolled back having changed nothing. The thread migrating is the
                // store's own when a store opens (``suspendingMigrate(_:now:)``); the pause keeps
                // a store whose own lock wait is zero from spinning.
                guard clock.now < deadline else {
                    throw SchemaMigrationError.lockWaitExpired(version: migration.version, waited: lockWait)
                }
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 2)
            }
        }
    }

    private static func recordedVersion(on connection: Connection) throws -> Int {
        guard try connection.hasTable("schema_migrations") else { return 0 }
        return try connection.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations", []) {
            $0.int(0)
        } ?? 0
    }
}

/// Why migrating a database failed: one error for both stores, so callers map it once.
package enum SchemaMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database was written by a newer binary: it knows migrations this one does not.
    case databaseTooNew(databaseVersion: Int, supportedVersion: Int)
    /// The migration list itself is wrong: versions must run 1, 2, 3… without gaps.
    case invalidMigrationList(String)
    /// Another connection held the lock a migration needs for all of ``SchemaMigrator/lockWait``;
    /// the migrations before `version` stay applied.
    case lockWaitExpired(version: Int, waited: Duration)

    package var description: String {
        switch self {
        case let .databaseTooNew(databaseVersion, supportedVersion):
            "the database is at schema version \(databaseVersion), newer than this build supports "
                + "(\(supportedVersion)); use a newer KeyCat"
        case let .invalidMigrationList(reason):
            "invalid migration list: \(reason)"
        case let .lockWaitExpired(version, waited):
            "gave up on schema migration \(version) after waiting \(waited.components.seconds) s for another connection "
                + "to release the database's write lock; is another process migrating it, or holding a long transaction?"
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
