import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension DatabaseBackupCommand {
    /// The rows' file in a Postgres backup directory: `pg_dump --format=custom`.
    static let postgresDumpFile = BackupManifest.postgresDumpFile

    /// `db backup` on Postgres: the rows with `pg_dump --format=custom` (one consistent snapshot
    /// of the database, or of the URL's `search_path` schema; the images are rows too), then the
    /// PG simulator's file and the folder of images from before they moved into the database, as
    /// the SQLite backup orders them (see `KeyCat.createBackup(in:by:progress:)`): the simulator
    /// may only be ahead of the rows. Then a `manifest.json` like a SQLite backup's: versions, the
    /// row counts — read in the very snapshot `pg_dump` copies (a repeatable-read transaction
    /// exports it and `pg_dump --snapshot` uses it) — and every file's size and SHA-256, which
    /// `db restore` checks before it changes anything. Never half a backup: on any failure the new
    /// directory (or file, with `--database-only`, which has no manifest) is removed and the
    /// command fails. Without `pg_dump` on `PATH`, it says what to run and does nothing.
    func runPostgres(_ context: CommandContext) throws {
        let files = context.configuration().databasePath
        let simulator = PGSimulator.storagePath(besideDatabase: files)
        let images = files + ".images"
        let connection = PostgresTool.Connection(context.databasePath)
        guard let pgDump = PostgresTool.find("pg_dump") else {
            let dump = "pg_dump --format=custom " + (connection.schema.map { "--schema=\($0) " } ?? "")
            throw KeyCatError.validation("db", databaseOnly ? """
                pg_dump is not on PATH; install postgresql-client (its major version the server's or newer) or run:
                  \(dump)--file=\(PostgresTool.quoted(destination)) \(PostgresTool.quoted(context.databaseName))
                (the password where *** stands, or in PGPASSWORD)
                """ : """
                pg_dump is not on PATH; install postgresql-client (its major version the server's or newer) or run:
                  mkdir -m 700 \(PostgresTool.quoted(destination))
                  \(dump)--file=\(PostgresTool.quoted(destination + "/" + Self.postgresDumpFile)) \(PostgresTool.quoted(context.databaseName))
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
        let dumpPath = databaseOnly ? destination : destination + "/" + Self.postgresDumpFile
        var simulatorPayments: Int?
        var imageCount = 0
        var manifest: BackupManifest?
        do {
            if !databaseOnly { try OwnerOnlyFile.createDirectory(destination) }
            // The snapshot pg_dump copies, held open by this transaction until it is done, so the
            // manifest's counts are of exactly the rows in the dump.
            let snapshot = try PostgresConnection(url: context.databasePath)
            defer { snapshot.close() }
            try snapshot.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
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
                    simulatorPayments = try PGSimulator.backupStorage(
                        at: simulator, to: destination + "/" + BackupManifest.simulatorFile)
                }
                imageCount = try Self.copyImages(from: images, to: destination + "/" + BackupManifest.imagesFolder)
                manifest = try KeyCat.writePostgresManifest(
                    in: destination, createdAt: createdAt, schemaVersion: schema, serverVersion: server,
                    source: context.databaseName, counts: inventory.counts, simulatorPayments: simulatorPayments)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            if let error = error as? KeyCatError { throw error }
            throw KeyCatError(.storage, "the backup failed and was removed: \(error)", context: ["path": destination])
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: dumpPath)[.size] as? Int) ?? nil
        context.emit(
            json: .object([
                ("source", .string(context.databaseName)), ("path", .string(destination)), ("store", .string("postgres")),
                ("dump", .string(dumpPath)), ("dump_bytes", bytes.map { .int($0) } ?? .null),
                ("schema", connection.schema.map { .string($0) } ?? .null),
                ("simulator_payments", simulatorPayments.map { .int($0) } ?? .null), ("images", .int(imageCount)),
                ("counts", manifest.map { counts in .object(counts.counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }) } ?? .null),
                ("manifest", manifest == nil ? .null : .string(destination + "/" + BackupManifest.fileName)),
            ]),
            human: "Backed up \(context.databaseName) to \(destination)" + (databaseOnly ? "" : "/")
                + ": pg_dump " + (connection.schema.map { "of schema \($0) " } ?? "") + "(\(bytes ?? 0) bytes)"
                + (databaseOnly ? "" : (simulatorPayments.map { ", PG simulator (\($0) payments)" } ?? ", no PG simulator file")
                    + ", \(imageCount) image file(s) from before images moved into the database, manifest.json")
                + ".\nRestore it with: keycat-admin db restore \(destination) --db URL")
    }

    /// Copies every image file in `source` (none when it does not exist) into `folder`, created
    /// owner-only; answers how many.
    private static func copyImages(from source: String, to folder: String) throws -> Int {
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
