import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// What ``backUpPostgres(_:to:databaseOnly:)`` wrote.
    public struct PostgresBackup: Sendable {
        /// The `pg_dump --format=custom` file.
        public var dumpPath: String
        /// Its size.
        public var dumpBytes: Int?
        /// The schema the URL's `search_path` names, when it names one: the dump holds it alone.
        public var schema: String?
        /// The payments in the PG simulator's copy; nil without a simulator file (or with
        /// `databaseOnly`).
        public var simulatorPayments: Int?
        /// The image files copied from the folder of images from before they moved into the database.
        public var images: Int
        /// The backup's manifest; nil with `databaseOnly`.
        public var manifest: BackupManifest?
    }

    /// Backs up a Postgres shop (`keycat-admin db backup` on Postgres), as ``createBackup(in:by:progress:)``
    /// does a SQLite one: the rows with `pg_dump --format=custom` (one consistent snapshot of the
    /// database, or of the URL's `search_path` schema; the images are rows too), then the PG
    /// simulator's file and the folder of images from before they moved into the database —
    /// the simulator may only be ahead of the rows — then a `manifest.json`: versions, the row
    /// counts read in the very snapshot `pg_dump` copies (a repeatable-read transaction exports
    /// it and `pg_dump --snapshot` uses it) and every file's size and SHA-256, which
    /// ``restorePostgres(_:from:force:)`` checks before it changes anything. With `databaseOnly`,
    /// the dump alone, into a file at `destination`, with no manifest.
    ///
    /// Never half a backup: on any failure the new directory (or file) is removed.
    ///
    /// - Throws: `validation` when `pg_dump` is not on `PATH` (the message gives the commands to
    ///   run instead); `storage` when `destination` exists (a backup never overwrites) or a step
    ///   fails.
    public static func backUpPostgres(_ store: PostgresStore, to destination: String,
                                      databaseOnly: Bool = false) throws(KeyCatError) -> PostgresBackup {
        let simulator = PGSimulator.storagePath(besideDatabase: store.filesBeside)
        let images = store.filesBeside + ".images"
        let connection = PostgresTool.Connection(store.url)
        guard let pgDump = PostgresTool.find("pg_dump") else {
            let dump = "pg_dump --format=custom " + (connection.schema.map { "--schema=\($0) " } ?? "")
            let database = PostgresTool.quoted(connection.masked)
            throw KeyCatError.validation("db", databaseOnly ? """
                pg_dump is not on PATH; install postgresql-client (its major version the server's or newer) or run:
                  \(dump)--file=\(PostgresTool.quoted(destination)) \(database)
                (the password where *** stands, or in PGPASSWORD)
                """ : """
                pg_dump is not on PATH; install postgresql-client (its major version the server's or newer) or run:
                  mkdir -m 700 \(PostgresTool.quoted(destination))
                  \(dump)--file=\(PostgresTool.quoted(destination + "/" + BackupManifest.postgresDumpFile)) \(database)
                  cp \(PostgresTool.quoted(simulator)) \(PostgresTool.quoted(destination + "/"))
                  cp -R \(PostgresTool.quoted(images)) \(PostgresTool.quoted(destination + "/images"))
                (the password where *** stands, or in PGPASSWORD; restore with keycat-admin db restore, or \
                pg_restore --single-transaction --dbname=URL, then run keycat-admin payments reconcile)
                """)
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw KeyCatError(.storage, "\(destination) already exists; a backup never overwrites anything",
                              context: ["path": destination, "reason": "exists"])
        }
        let dumpPath = databaseOnly ? destination : destination + "/" + BackupManifest.postgresDumpFile
        var backup = PostgresBackup(dumpPath: dumpPath, dumpBytes: nil, schema: connection.schema, simulatorPayments: nil,
                                    images: 0, manifest: nil)
        do {
            // The dump holds the signing keys and password hashes: owner-only from its first byte
            // (pg_dump writes into the file as it is, and a killed run leaves it so), not after.
            if databaseOnly { try OwnerOnlyFile.create(destination) } else { try OwnerOnlyFile.createDirectory(destination) }
            // The snapshot pg_dump copies, held open by this transaction until it is done, so the
            // manifest's counts are of exactly the rows in the dump.
            let snapshot = try PostgresConnection(url: store.url)
            defer { snapshot.close() }
            try snapshot.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // Idle while pg_dump copies, for as long as the copy takes: no idle timeout ends it.
            try snapshot.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
            let snapshotID = try snapshot.queryOne("SELECT pg_export_snapshot()", []) { $0.string(0) } ?? ""
            let inventory = try BackupInventory.read(on: snapshot)
            let schema = try snapshot.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations", []) { $0.int(0) } ?? 0
            let server = try snapshot.queryOne("SHOW server_version", []) { $0.string(0) } ?? ""
            let createdAt = Date()
            try pgDump.run(["--format=custom", "--file=\(dumpPath)", "--no-password", "--snapshot=\(snapshotID)"]
                + connection.arguments, connection: connection)
            try snapshot.execute("COMMIT")
            guard chmod(dumpPath, OwnerOnlyFile.fileMode) == 0 else {
                throw KeyCatError(.storage, "cannot make \(dumpPath) owner-only", context: ["path": dumpPath])
            }
            if !databaseOnly {
                if FileManager.default.fileExists(atPath: simulator) {
                    backup.simulatorPayments = try PGSimulator.backupStorage(
                        at: simulator, to: destination + "/" + BackupManifest.simulatorFile)
                }
                backup.images = try copyImageFiles(from: images, to: destination + "/" + BackupManifest.imagesFolder)
                backup.manifest = try writePostgresManifest(
                    in: destination, createdAt: createdAt, schemaVersion: schema, serverVersion: server,
                    source: connection.masked, counts: inventory.counts, simulatorPayments: backup.simulatorPayments)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            if let error = error as? KeyCatError { throw error }
            throw KeyCatError(.storage, "the backup failed and was removed: \(error)", context: ["path": destination])
        }
        backup.dumpBytes = (try? FileManager.default.attributesOfItem(atPath: dumpPath)[.size] as? Int) ?? nil
        return backup
    }

    /// Copies every image file in `source` (none when it does not exist) into `folder`, created
    /// owner-only; answers how many.
    private static func copyImageFiles(from source: String, to folder: String) throws -> Int {
        try OwnerOnlyFile.createDirectory(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: source) else { return 0 }
        var count = 0
        for name in names.sorted() where !name.hasPrefix(".") {
            _ = try OwnerOnlyFile.copy(from: source + "/" + name, to: folder + "/" + name)
            count += 1
        }
        return count
    }
}
