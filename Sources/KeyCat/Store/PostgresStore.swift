import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// A Postgres database and how KeyCat connects to it: for shops on several servers, which
    /// share it. The toggle budgets and the images then live in it too.
    ///
    /// ```swift
    /// var server = KeyCat.PostgresStore(url: "postgres://keycat@db.internal/keycat", filesBeside: "/var/lib/keycat/keycat")
    /// server.maximumConnections = 8
    /// let keycat = try await KeyCat.open(KeyCat.Configuration(.postgres(server)))
    /// ```
    public struct PostgresStore: Sendable, Hashable {
        /// A `postgres://user:password@host:port/database` URL, a libpq `key=value` string, or ""
        /// for libpq's environment variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`,
        /// `PGDATABASE`…).
        public var url: String
        /// Where what stays a file (the PG simulator's state, images from before they moved into
        /// the database) is placed, as a SQLite path would place it.
        public var filesBeside: String
        /// The connections this server keeps open to the database, 1–200; each has a thread of
        /// KeyCat's own while it waits. Default 4.
        public var maximumConnections: Int = 4

        /// The database at `url`, with files kept beside `filesBeside`.
        public init(url: String, filesBeside: String) {
            self.url = url
            self.filesBeside = filesBeside
        }

        /// The store KeyCat opened on a Postgres database.
        struct Opened: OpenedStore {
            let database: PostgresDatabase

            var sharesServers: Bool { true }
            var file: SQLiteDatabase? { nil }

            func catalogVersion() throws(KeyCatError) -> Int64? {
                database.changeVersion(channel: KeyCatSchema.catalogChangeChannel)
            }

            func schemaProblems() async throws -> [String] {
                try await database.read { try PostgresExpectedSchema.problems(on: $0) }
            }
        }

        /// Connects, refuses a database that cannot hold Korean text, and migrates under the
        /// migrator's advisory lock (servers starting together apply each migration once) or,
        /// when `migrates` is off, refuses a database from a newer KeyCat (``KeyCat/open(_:)``).
        func open(_ configuration: Configuration) async throws(KeyCatError) -> OpenedDatabase<Opened> {
            guard (1...200).contains(maximumConnections) else {
                throw KeyCatError.validation("maximum_connections", "a Postgres store keeps 1 to 200 connections")
            }
            var settings = PostgresConfiguration(url: url.isEmpty ? nil : url)
            settings.maximumConnections = maximumConnections
            // Each write learns with its COMMIT whether it changed the catalog, so only those move
            // this server's catalog version at once (others' arrive by notification).
            settings.commitProbe = KeyCatSchema.catalogCommitProbe
            settings.commitProbeChannel = KeyCatSchema.catalogChangeChannel
            // Every connection says the store is open on its schema, for a restore to see.
            settings.onConnect = KeyCatSchema.openStoreLockCall
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
                if configuration.migrates {
                    applied = try await storage { try await migrator.suspendingMigrate(database, now: configuration.clock.now()) }
                } else {
                    try storage { try migrator.checkCompatible(database) }
                }
                if configuration.migrates { _ = try await SearchMaintenance(database: database).catchUp() }
                return OpenedDatabase(store: Opened(database: database), migrationsApplied: applied, restored: [])
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
}
