import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// Reads a backup directory's manifest and checks every file it lists against its size and
    /// SHA-256, without opening or changing anything.
    ///
    /// - Throws: `storage` when there is no readable manifest, when the backup was written in a
    ///   newer layout or at a newer schema than this build knows, or when a file is missing,
    ///   has another size or another checksum (the message names it).
    public static func verifyBackup(at directory: String) throws(KeyCatError) -> BackupManifest {
        let manifestPath = directory + "/" + BackupManifest.fileName
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw KeyCatError(.storage, "\(directory) is not a KeyCat backup: there is no readable \(BackupManifest.fileName)",
                              context: ["path": directory])
        }
        let manifest: BackupManifest
        do {
            manifest = try BackupManifest.decoder.decode(BackupManifest.self, from: data)
        } catch {
            throw KeyCatError(.storage, "\(manifestPath) is not a valid backup manifest", context: ["path": manifestPath])
        }
        guard manifest.format <= BackupManifest.currentFormat, manifest.schemaVersion <= latestSchemaVersion else {
            throw KeyCatError(.storage, "\(directory) was written by a newer KeyCat (\(manifest.keycatVersion), schema "
                              + "\(manifest.schemaVersion)); restore it with that version or later", context: ["path": directory])
        }
        guard manifest.files.contains(where: { $0.path == manifest.rowsFile }) else {
            throw KeyCatError(.storage, "\(manifestPath) lists no \(manifest.rowsFile)", context: ["path": manifestPath])
        }
        for file in manifest.files {
            let allowed = file.path == manifest.rowsFile || file.path == BackupManifest.simulatorFile
                || (file.path.hasPrefix(BackupManifest.imagesFolder + "/")
                    && isImageFileName(String(file.path.dropFirst(BackupManifest.imagesFolder.count + 1))))
            guard allowed else {
                throw KeyCatError(.storage, "\(manifestPath) lists an unexpected file '\(file.path)'", context: ["path": manifestPath])
            }
            let found = try? describe(file.path, in: directory)
            guard let found, found == file else {
                let path = directory + "/" + file.path
                throw KeyCatError(.storage, found == nil ? "\(path) is missing from the backup"
                                  : "\(path) does not match the manifest (size or SHA-256 differs): the backup is damaged",
                                  context: ["path": path, "reason": "checksum"])
            }
        }
        return manifest
    }

    /// Restores a backup taken by ``createBackup(in:by:progress:)`` as the database at
    /// `databasePath`, with its companions beside it: the simulator file
    /// (``PGSimulator/storagePath(besideDatabase:)``) and the images folder (`<database>.images`).
    ///
    /// Nothing is put in place until the copy is proven: the backup is verified
    /// (``verifyBackup(at:)``), copied into a staging folder beside the target (owner-only),
    /// checksummed again there, and the staged database must pass the same checks as `db check`
    /// and hold the manifest's row counts. Then the parts are renamed into place, the database
    /// last. Afterwards run `payments reconcile`: the simulator copy was taken a moment after the
    /// database's and may know of payments the database copy does not.
    ///
    /// Stop every process using the target first: a server holding the old file open would keep
    /// writing to it, so the restore refuses while another process has it open (``SQLiteFileUse``,
    /// read from `/proc/locks` on Linux; within one process SQLite shares a file's locks among
    /// its connections, so the caller's own are not a reliable sign).
    ///
    /// - Parameters:
    ///   - force: replace an existing database and its companions (`-wal`, `-shm`, simulator
    ///     file, images folder). Without it, any of them existing is a refusal that changes nothing.
    /// - Returns: the backup's manifest.
    /// - Throws: `storage` when the backup fails verification or the check, when the target or
    ///   a companion exists and `force` is false (context `reason: exists`, `existing`), or when
    ///   a file cannot be written; `validation` while the target is open. On failure the target
    ///   is left as it was.
    @discardableResult
    public static func restoreBackup(from backup: String, toDatabaseAt databasePath: String,
                                     force: Bool = false) async throws(KeyCatError) -> BackupManifest {
        let manifest = try verifyBackup(at: backup)
        guard !manifest.isPostgres else {
            throw KeyCatError.validation("backup", "\(backup) is a Postgres backup; restore it to a Postgres database with --db postgres://…")
        }
        let target = RestoreTarget(databasePath: databasePath)
        try refuseIfOpen(databasePath)
        let existing = target.existingParts
        if !existing.isEmpty, !force {
            throw KeyCatError(
                .storage, "\(databasePath) or its companions exist (\(existing.joined(separator: ", "))); "
                    + "a restore replaces a database only when forced (--force)",
                context: ["path": databasePath, "reason": "exists", "existing": existing.joined(separator: ",")])
        }
        let staging = try target.makeStagingFolder()
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try stage(manifest, from: backup, into: staging)
        try await checkStaged(staging + "/" + BackupManifest.databaseFile, against: manifest)
        // Again: the check takes minutes on a large file, and a server that opened the target
        // meanwhile would go on writing to the file the rename unlinks, and lose every write.
        try refuseIfOpen(databasePath)
        try target.replace(with: staging, simulator: manifest.simulatorPayments != nil)
        return manifest
    }

    private static func refuseIfOpen(_ databasePath: String) throws(KeyCatError) {
        guard !SQLiteFileUse.isOpen(databasePath) else {
            throw KeyCatError.validation("db", "\(databasePath) is open: a server or keycat-admin command has it; "
                + "stop every process using it, then restore (nothing was changed)")
        }
    }

    /// Copies every file of the backup into `staging`, checking each copy's checksum.
    private static func stage(_ manifest: BackupManifest, from backup: String, into staging: String) throws(KeyCatError) {
        do {
            try OwnerOnlyFile.createDirectory(staging + "/" + BackupManifest.imagesFolder)
            for file in manifest.files {
                let digest = try OwnerOnlyFile.copy(from: backup + "/" + file.path, to: staging + "/" + file.path)
                guard SHA256.hex(digest) == file.sha256 else {
                    throw KeyCatError(.storage, "\(backup)/\(file.path) changed while it was being restored",
                                      context: ["path": backup + "/" + file.path, "reason": "checksum"])
                }
            }
        } catch let error as KeyCatError {
            throw error
        } catch {
            throw KeyCatError(.storage, "the backup could not be copied: \(error)", context: ["path": staging])
        }
    }

    /// Runs `db check`'s checks on the staged database and compares its row counts with the
    /// manifest's. Opens it without a gateway and leaves no `-wal`/`-shm`.
    ///
    /// A backup taken at an older schema is migrated first, in its private staged copy, so it
    /// is checked as this build will run it and put in place already migrated (until
    /// 2026-12-01 it was checked unmigrated and refused: every backup taken before an upgrade).
    /// The counted tables are the same rows before and after a migration.
    private static func checkStaged(_ path: String, against manifest: BackupManifest) async throws(KeyCatError) {
        var file = SQLiteStore(path: path)
        file.readerCount = 1
        var configuration = Configuration(.sqlite(file))
        configuration.createIfMissing = false
        configuration.migrates = manifest.schemaVersion < latestSchemaVersion
        configuration.paymentGateway = .custom(
            MissingSimulatorGateway(reason: "a backup being restored makes no payments"), webhookSecrets: [])
        let copy = try await open(configuration)
        let report: HealthReport
        let inventory: BackupInventory
        do {
            defer { copy.close() }
            report = try await copy.checkHealth()
            inventory = try await storage { try await copy.database.read { try BackupInventory.read(on: $0) } }
        }
        // The search index is derived from the catalog: one a newer analyzer would write
        // differently is brought up to date by the next open that migrates, so it refuses no backup.
        // Nor does a listing on sale beside an account that may not sell: the operators take it
        // out once it is restored (``CatalogInvariants``).
        let invariants = report.invariantProblems.filter { !CatalogInvariants.isListingProblem($0) }
        let problems = report.integrityProblems + report.foreignKeyProblems + invariants + report.schemaProblems
        guard problems.isEmpty else {
            throw KeyCatError(.storage, "the backup's database fails the check: \(problems.prefix(5).joined(separator: "; "))",
                              context: ["path": path])
        }
        guard inventory.counts == manifest.counts else {
            throw KeyCatError(.storage, "the backup's database does not hold the rows its manifest counts", context: ["path": path])
        }
        // The last connection's close checkpoints and removes the -wal; a -wal left with content
        // would hold commits the renamed file would lose.
        if KeyCat.size(of: path + "-wal") > 0 {
            throw KeyCatError(.storage, "the checked copy left a write-ahead log behind", context: ["path": path])
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
