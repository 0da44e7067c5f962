import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension DatabaseRestoreCommand {
    /// `db restore` on Postgres: puts a backup directory written by `db backup` on Postgres back
    /// with `pg_restore --single-transaction --exit-on-error --no-owner` (with `--force`, also
    /// `--clean --if-exists`), so the rows are restored whole or not at all, then its PG
    /// simulator file and images beside. A backup with a `manifest.json` is verified first (every
    /// file's size and SHA-256, and a schema this build knows), and its row counts are compared
    /// with the restored rows after; a backup from before manifests is restored as it is. Without `--force` it refuses (exit 3, nothing changed)
    /// when the simulator file or the images folder exists beside, and `pg_restore` itself fails
    /// on tables that exist, rolling back. Without `pg_restore` on `PATH`, it says what to run.
    func runPostgres(_ context: CommandContext) async throws {
        let dump = backup + "/" + DatabaseBackupCommand.postgresDumpFile
        guard FileManager.default.fileExists(atPath: dump) else {
            let sqlite = FileManager.default.fileExists(atPath: backup + "/" + BackupManifest.fileName)
            throw KeyCatError.validation("backup", sqlite
                ? "\(backup) is a SQLite backup; restore it to a SQLite file with --db PATH"
                : "\(backup) holds no \(DatabaseBackupCommand.postgresDumpFile): not a backup made by db backup on Postgres")
        }
        var manifest: BackupManifest?
        if FileManager.default.fileExists(atPath: backup + "/" + BackupManifest.fileName) {
            let verified = try KeyCat.verifyBackup(at: backup)
            guard verified.isPostgres else {
                throw KeyCatError.validation("backup", "\(backup) is a SQLite backup; restore it to a SQLite file with --db PATH")
            }
            manifest = verified
        }
        let files = context.configuration().databasePath
        let simulator = PGSimulator.storagePath(besideDatabase: files)
        let images = files + ".images"
        let backupSimulator = backup + "/" + BackupManifest.simulatorFile
        let backupImages = backup + "/" + BackupManifest.imagesFolder
        let connection = PostgresTool.Connection(context.databasePath)
        let options = ["--single-transaction", "--exit-on-error", "--no-owner"] + (force ? ["--clean", "--if-exists"] : [])
        guard let pgRestore = PostgresTool.find("pg_restore") else {
            throw KeyCatError.validation("db", """
                pg_restore is not on PATH; install postgresql-client (its major version the server's or newer) or, with every server stopped, run:
                  pg_restore \(options.joined(separator: " ")) --dbname=\(PostgresTool.quoted(context.databaseName)) \(PostgresTool.quoted(dump))
                  cp \(PostgresTool.quoted(backupSimulator)) \(PostgresTool.quoted(simulator))
                  mkdir -p \(PostgresTool.quoted(images)) && cp \(PostgresTool.quoted(backupImages))/* \(PostgresTool.quoted(images + "/"))
                (the password where *** stands, or in PGPASSWORD; then run keycat-admin payments reconcile)
                """)
        }
        let companions = [simulator, simulator + "-wal", simulator + "-shm", images].filter { FileManager.default.fileExists(atPath: $0) }
        guard force || companions.isEmpty else {
            throw KeyCatError(.storage, "\(companions.joined(separator: ", ")) already exist(s); give --force to replace them",
                              context: ["path": companions[0], "reason": "exists"])
        }
        do {
            try pgRestore.run(options + ["--no-password", "--dbname=\(connection.url)", dump], connection: connection)
        } catch let error as KeyCatError where !force {
            throw KeyCatError(error.code, error.message + "\n(nothing was changed; give --force to replace what is there)",
                              context: error.context)
        }
        do {
            for path in companions { try FileManager.default.removeItem(atPath: path) }
            if FileManager.default.fileExists(atPath: backupSimulator) {
                _ = try OwnerOnlyFile.copy(from: backupSimulator, to: simulator)
            }
            try OwnerOnlyFile.createDirectory(images)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: backupImages))?.sorted() ?? [] where !name.hasPrefix(".") {
                _ = try OwnerOnlyFile.copy(from: backupImages + "/" + name, to: images + "/" + name)
            }
        } catch {
            throw KeyCatError(.storage, "the rows are restored, but the PG simulator file or the images could not be put beside them: "
                + "\(error); copy \(backupSimulator) and \(backupImages)/ by hand", context: ["path": files])
        }
        if let manifest {
            let restored = try PostgresConnection(url: context.databasePath)
            defer { restored.close() }
            let counts = try BackupInventory.read(on: restored).counts
            guard counts == manifest.counts else {
                throw KeyCatError(.storage, "the restored rows do not match the backup's manifest: it counts \(manifest.counts), "
                    + "the database now holds \(counts); restore again with --force, or from another backup",
                    context: ["path": context.databaseName, "reason": "counts"])
            }
        }
        var configuration = context.configuration()
        configuration.migrates = false
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "database.restore", target: context.databaseName,
            detail: "from \(backup) with pg_restore" + (force ? ", replacing the existing tables" : ""),
            at: keycat.configuration.clock.now()))
        context.emit(
            json: .object([
                ("path", .string(context.databaseName)), ("backup", .string(backup)), ("store", .string("postgres")),
                ("schema", connection.schema.map { .string($0) } ?? .null), ("replaced", .bool(force)),
                ("verified", .bool(manifest != nil)),
            ]),
            human: "Restored \(backup) to \(context.databaseName) with pg_restore"
                + (connection.schema.map { " (schema \($0))" } ?? "") + ", with the PG simulator file and images beside."
                + "\nNext: keycat-admin payments reconcile --db URL")
    }
}
