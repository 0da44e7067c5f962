import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// Opens KeyCat on a Postgres database: connects, migrates under the migrator's advisory lock
    /// (servers starting together apply each migration once) or, when `migrates` is off, refuses a
    /// database from a newer KeyCat; loads or creates the secrets; wires every use case to the
    /// Postgres repositories.
    ///
    /// - Parameter url: a `postgres://user:password@host:port/database` URL or libpq `key=value`
    ///   string; empty for libpq's environment variables (`PGHOST`, `PGUSER`, …).
    static func openPostgres(_ url: String, _ configuration: Configuration) async throws(KeyCatError) -> KeyCat {
        // A setting that only means something for a SQLite file is refused rather than ignored:
        // a shop that moved to Postgres must not believe it still holds.
        guard !configuration.readOnly else {
            throw KeyCatError.validation("read_only", "read-only opens are for SQLite files; on Postgres, connect as a read-only role")
        }
        guard configuration.durability == .full else {
            throw KeyCatError.validation(
                "durability", "durability is SQLite's synchronous setting; on Postgres a commit's durability is the server's synchronous_commit")
        }
        var settings = PostgresConfiguration(url: url.isEmpty ? nil : url)
        settings.maximumConnections = max(1, configuration.readerCount + 1)
        // Each write learns with its COMMIT whether it changed the catalog, so only those move
        // this server's catalog version at once (others' arrive by notification).
        settings.commitProbe = KeyCatSchema.catalogCommitProbe
        settings.commitProbeChannel = KeyCatSchema.catalogChangeChannel
        let database: PostgresDatabase
        do {
            database = try PostgresDatabase(configuration: settings)
        } catch {
            throw KeyCatError(.storage, "cannot connect to Postgres: \(error.message)", context: ["sql_state": error.sqlState ?? ""])
        }
        do {
            let migrator = KeyCatSchema.migrator(on: PostgresConnection.self)
            var applied: [Int] = []
            try await Self.checkEncoding(database)
            try storage {
                if configuration.migrates {
                    applied = try migrator.migrate(database, now: configuration.clock.now())
                } else {
                    try migrator.checkCompatible(database)
                }
            }
            if configuration.migrates { _ = try await SearchMaintenance(database: database).catchUp() }
            let secrets = try await KeyCatSecrets.loadOrCreate(
                database, tokenSigningKey: configuration.tokenSigningKey?.bytes, cursorKey: configuration.cursorKey?.bytes,
                persist: configuration.migrates)
            return KeyCat(configuration: configuration, store: .postgres(database), database: database, secrets: secrets,
                          migrationsApplied: applied, restored: [], gateway: try makeGateway(configuration, simulatorWebhookSecret: secrets.simulatorWebhookSecret))
        } catch {
            database.close()
            throw error
        }
    }

    /// Search compares Hangul by its UTF-8 bytes: a database in another encoding (`SQL_ASCII`,
    /// `EUC_KR`) would store what it cannot compare, and a cluster whose `LC_CTYPE` is not UTF-8
    /// is where such databases come from. Refused with what to do, before anything is written.
    static func checkEncoding(_ database: PostgresDatabase) async throws(KeyCatError) {
        let encoding = try await storage { try await database.read { connection in
            try connection.queryOne("SELECT pg_encoding_to_char(encoding), datctype FROM pg_database WHERE datname = current_database()", []) {
                ($0.string(0), $0.string(1))
            }
        } }
        guard let (name, ctype) = encoding else { return }
        guard name == "UTF8" else {
            throw KeyCatError(.storage, """
                the Postgres database's encoding is \(name) (LC_CTYPE \(ctype)); KeyCat needs UTF8 to store and search Korean text: \
                create the database with ENCODING 'UTF8' (e.g. createdb -E UTF8 -T template0 --locale C.UTF-8)
                """, context: ["encoding": name, "lc_ctype": ctype])
        }
    }
}
