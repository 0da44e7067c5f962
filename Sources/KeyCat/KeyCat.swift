import Foundation
@_exported import KeyCatDomain
import KeyCatData
import KeyCatInfrastructure

/// KeyCat's composition root: opens the database and hands out the use cases.
///
/// Open one `KeyCat` per database file per process and share it: it is `Sendable`, keeps one
/// writer and a few reader connections, and every use case it hands out is safe to call from
/// many tasks at once.
///
/// ```swift
/// let keycat = try KeyCat.open(.init(databasePath: "/var/lib/keycat/keycat.db"))
/// defer { keycat.close() }
/// ```
public final class KeyCat: Sendable {
    /// The configuration the database was opened with.
    public let configuration: Configuration
    /// The migrations this `open` applied (empty when the schema was already current).
    public let migrationsApplied: [Int]
    let database: SQLiteDatabase

    private init(configuration: Configuration, database: SQLiteDatabase, migrationsApplied: [Int]) {
        self.configuration = configuration
        self.database = database
        self.migrationsApplied = migrationsApplied
    }

    /// Opens the database, creating and migrating it as `configuration` says.
    ///
    /// - Throws: ``KeyCatError/Code/storage`` when the file cannot be opened, is not a SQLite
    ///   database, or was written by a newer KeyCat. Nothing is created or changed then.
    public static func open(_ configuration: Configuration) throws(KeyCatError) -> KeyCat {
        let database = try storage { try SQLiteDatabase(path: configuration.databasePath, configuration: configuration.sqlite) }
        var applied: [Int] = []
        do {
            let migrator = KeyCatSchema.migrator()
            if configuration.migrates {
                applied = try migrator.migrate(database, now: configuration.clock.now())
            } else {
                try migrator.checkCompatible(database)
            }
        } catch {
            database.close()
            throw KeyCatError.storage(error)
        }
        return KeyCat(configuration: configuration, database: database, migrationsApplied: applied)
    }

    /// Closes every connection. Calls made afterwards fail with a storage error.
    public func close() { database.close() }

    /// The schema version recorded in the database.
    public func schemaVersion() throws(KeyCatError) -> Int {
        try storage { try KeyCatSchema.migrator().currentVersion(of: database) }
    }

    /// The newest schema version this build knows.
    public static var latestSchemaVersion: Int { KeyCatSchema.migrations.count }

    /// The audit log of operator actions.
    public var auditLog: any AuditLog { SQLiteAuditLog(database: database) }

    /// Runs SQLite's integrity and foreign-key checks and KeyCat's invariants.
    public func checkHealth() throws(KeyCatError) -> HealthReport {
        let health = try storage { try DatabaseHealth.check(database) }
        return HealthReport(
            integrityProblems: health.integrityProblems,
            foreignKeyProblems: health.foreignKeyProblems,
            invariantProblems: health.invariantProblems)
    }
}
