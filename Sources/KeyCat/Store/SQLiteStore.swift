import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// A SQLite file and how KeyCat opens it: the embedded default. One writer and a few
    /// readers in one process; other processes (`keycat-admin`) may open the same file.
    ///
    /// ```swift
    /// var file = KeyCat.SQLiteStore(path: "/var/lib/keycat/keycat.db")
    /// file.durability = .normal
    /// let keycat = try await KeyCat.open(KeyCat.Configuration(.sqlite(file)))
    /// ```
    public struct SQLiteStore: Sendable, Hashable {
        /// How hard a commit is pushed to disk.
        public enum Durability: String, Sendable, CaseIterable {
            /// `synchronous=FULL`: every commit is fsynced, so a paid order survives power loss.
            case full
            /// `synchronous=NORMAL`: faster; a power loss may lose the last commits (never
            /// corrupts).
            case normal
        }

        /// The file; its folder must exist. The images folder and the PG simulator's file are
        /// kept beside it. `""` or `":memory:"`: an in-memory database, gone when closed.
        public var path: String
        /// Commit durability. Default ``Durability/full``.
        public var durability: Durability = .full
        /// Read-only connections kept beside the one writer, 0–64. Default 3.
        public var readerCount: Int = 3
        /// Open every connection read-only (`SQLITE_OPEN_READONLY`): nothing is created, migrated,
        /// stamped or swept (lapsed discounts keep their stored price until a writer sweeps
        /// them), no PG simulator is opened (payments are `gatewayUnavailable`), and every write
        /// fails with a storage error. Works on a read-only file in a read-only directory. The
        /// file must be a KeyCat database at a schema version this build knows.
        public var readOnly: Bool = false
        /// The registered SQLite VFS the file is opened through (the PG simulator's is not).
        /// Nil: the platform's default. For the fault-injection tests.
        package var vfs: String?

        /// The file at `path`, every other setting at its default.
        public init(path: String) {
            self.path = path
        }

        /// The store KeyCat opened on a SQLite file.
        struct Opened: OpenedStore {
            let database: SQLiteDatabase

            var sharesServers: Bool { false }
            var file: SQLiteDatabase? { database }

            func catalogVersion() throws(KeyCatError) -> Int64? { try storage { try database.dataVersion() } }

            func schemaProblems() async throws -> [String] { [] }
        }

        /// Opens the file, creating and migrating it as `configuration` says (``KeyCat/open(_:)``).
        func open(_ configuration: Configuration) async throws(KeyCatError) -> OpenedDatabase<Opened> {
            guard (0...64).contains(readerCount) else {
                throw KeyCatError.validation("reader_count", "a SQLite store keeps 0 to 64 readers beside its writer")
            }
            let database: SQLiteDatabase
            do {
                database = try SQLiteDatabase(path: path, configuration: settings(createIfMissing: configuration.createIfMissing))
            } catch {
                throw KeyCatError.storage(error, path: path)
            }
            do {
                let migrator = KeyCatSchema.migrator(on: SQLiteConnection.self)
                if configuration.migrates && !readOnly {
                    let applied = try await migrator.suspendingMigrate(database, now: configuration.clock.now())
                    let restored = try await ExpectedSchema.restoreMissing(database)
                    _ = try await SearchMaintenance(database: database).catchUp()
                    return OpenedDatabase(store: Opened(database: database), migrationsApplied: applied, restored: restored)
                }
                try migrator.checkCompatible(database)
                if readOnly, try migrator.currentVersion(of: database) == 0 {
                    throw KeyCatError(.storage, "\(path) is an empty database, not initialised (run 'keycat-admin init')",
                                      context: ["path": path])
                }
                return OpenedDatabase(store: Opened(database: database), migrationsApplied: [], restored: [])
            } catch {
                database.close()
                throw KeyCatError.storage(error, path: path)
            }
        }

        func settings(createIfMissing: Bool) -> SQLiteConfiguration {
            var sqlite = SQLiteConfiguration()
            sqlite.synchronous = durability == .full ? .full : .normal
            sqlite.readerCount = readerCount
            sqlite.createIfMissing = createIfMissing && !readOnly
            sqlite.readOnly = readOnly
            sqlite.application = KeyCatSchema.application
            sqlite.knownApplications = [PGSimulator.storageApplication]
            sqlite.vfsName = vfs
            return sqlite
        }
    }

    /// A store just opened and migrated, before KeyCat is built on it.
    struct OpenedDatabase<Store: OpenedStore> {
        let store: Store
        let migrationsApplied: [Int]
        let restored: [String]
    }
}
