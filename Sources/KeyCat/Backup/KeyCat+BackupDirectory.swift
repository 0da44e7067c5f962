import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// Backs up the whole shop into a new directory while it keeps running: the database, the
    /// PG simulator's file and the product images, with a ``BackupManifest`` (versions, row
    /// counts, checksums, time). Restore it with ``restoreBackup(from:toDatabaseAt:force:)``.
    ///
    /// Order, and why it is consistent:
    /// 1. The database is copied first, from one read snapshot (SQLite's online backup, as
    ///    ``backup(to:pagesPerStep:by:progress:)``); the manifest's counts and the list of
    ///    referenced images are read inside that same snapshot.
    /// 2. The simulator's file is copied next, from its own snapshot, a moment later. It stands
    ///    for the PG, which is outside the shop, so it can only be *ahead* of the database copy:
    ///    a payment made in between is in the simulator and its order still awaits payment in the
    ///    database, which is exactly what `payments reconcile` settles (it asks the PG). Copying
    ///    it first would be worse: the database could hold a paid order the simulator never saw,
    ///    and its refund would fail with "payment not found".
    /// 3. The images the snapshot references are copied last. An image file is written before
    ///    the row that references it commits and is deleted only by the image sweep, once no
    ///    listing names it, so every image the snapshot references is on disk by then unless a
    ///    sweep took it while the backup ran (a withdrawn listing's, its list emptied after the
    ///    snapshot); one that is not is listed in ``BackupManifest/missingImages``.
    ///
    /// The directory is created owner-only (0700, files 0600) whatever the umask.
    ///
    /// - Parameters:
    ///   - directory: the backup directory; it must not exist (its parent must).
    ///   - progress: called after each step of the database copy.
    /// - Returns: the manifest written to `directory/manifest.json`.
    /// - Throws: `forbidden` unless an admin calls; `storage` when something is at `directory`
    ///   (context `reason: exists`), when it cannot be created, or when a copy fails. A failed
    ///   backup removes the directory it created.
    public func createBackup(in directory: String, by principal: Principal,
                             progress: (BackupProgress) -> Void = { _ in }) async throws(KeyCatError) -> BackupManifest {
        try principal.require(.admin, to: "back up the shop")
        do {
            try OwnerOnlyFile.createDirectory(directory)
        } catch {
            if case .exists = error {
                throw KeyCatError(.storage, "\(directory) already exists; a backup never overwrites anything",
                                  context: ["path": directory, "reason": "exists"])
            }
            throw KeyCatError(.storage, "cannot create the backup directory \(error)", context: ["path": directory])
        }
        do {
            return try await writeBackup(in: directory, progress: progress)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private func writeBackup(in directory: String, progress: (BackupProgress) -> Void) async throws(KeyCatError) -> BackupManifest {
        let databaseCopy = directory + "/" + BackupManifest.databaseFile
        var inventory = BackupInventory(counts: [:], imageFiles: [])
        let schema = try await schemaVersion()
        do {
            try await database.backup(to: databaseCopy) { step in
                progress(BackupProgress(copiedPages: step.copiedPages, totalPages: step.totalPages))
            } snapshot: { connection in
                inventory = try BackupInventory.read(on: connection)
            }
        } catch {
            throw KeyCatError(.storage, "the database copy failed: \(KeyCatError.storage(error).message)", context: ["path": databaseCopy])
        }
        let createdAt = configuration.clock.now()
        return try await withTaskExecutorPreference(Self.backupFileThreads) { () async throws(KeyCatError) -> BackupManifest in
            try writeFiles(in: directory, inventory: inventory, schema: schema, createdAt: createdAt)
        }
    }

    /// The thread a backup's file work runs on: the checksums, the simulator's copy, the images
    /// and the manifest are blocking reads and writes that take as long as a shop's files do,
    /// and must hold neither a thread of the caller's pool nor one of the store's meanwhile.
    private static let backupFileThreads = DedicatedThreads(count: 1, name: "keycat-backup")

    /// Everything of a backup after the database's copy, on ``backupFileThreads``.
    private func writeFiles(in directory: String, inventory: BackupInventory, schema: Int,
                            createdAt: Date) throws(KeyCatError) -> BackupManifest {
        var files = [try Self.describe(BackupManifest.databaseFile, in: directory)]
        var simulatorPayments: Int?
        let simulatorPath = PGSimulator.storagePath(besideDatabase: configuration.databasePath)
        if !configuration.databasePath.isEmpty, configuration.databasePath != ":memory:",
           FileManager.default.fileExists(atPath: simulatorPath) {
            do {
                simulatorPayments = try PGSimulator.backupStorage(at: simulatorPath, to: directory + "/" + BackupManifest.simulatorFile)
            } catch {
                throw KeyCatError(.storage, "the PG simulator copy failed: \(error)", context: ["path": simulatorPath])
            }
            files.append(try Self.describe(BackupManifest.simulatorFile, in: directory))
        }
        let (images, missing) = try copyImages(inventory.imageFiles, to: directory + "/" + BackupManifest.imagesFolder)
        files += images
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, createdAt: createdAt, keycatVersion: Self.version, schemaVersion: schema,
            sqliteVersion: LibraryVersions.sqlite, store: nil, postgresVersion: nil, source: configuration.databasePath,
            counts: inventory.counts,
            simulatorPayments: simulatorPayments, images: images.count, missingImages: missing, files: files)
        do {
            try OwnerOnlyFile.write(Array(try BackupManifest.encoder.encode(manifest)), to: directory + "/" + BackupManifest.fileName)
        } catch {
            throw KeyCatError(.storage, "the manifest could not be written: \(error)", context: ["path": directory])
        }
        return manifest
    }

    /// Copies the referenced image files that exist into `folder` (created 0700): their
    /// manifest entries, and the names that were not there (not on disk, or not in memory for an
    /// in-memory database).
    private func copyImages(_ names: Set<String>, to folder: String) throws(KeyCatError) -> ([BackupManifest.File], [String]) {
        var copied: [BackupManifest.File] = []
        var missing: [String] = []
        do {
            try OwnerOnlyFile.createDirectory(folder)
            for name in names.sorted() {
                guard Self.isImageFileName(name) else {
                    missing.append(name)
                    continue
                }
                let digest: [UInt8]
                if let directory = imagesDirectory {
                    let source = directory.appendingPathComponent(name).path
                    guard FileManager.default.fileExists(atPath: source) else {
                        missing.append(name)
                        continue
                    }
                    digest = try OwnerOnlyFile.copy(from: source, to: folder + "/" + name)
                } else {
                    // An in-memory database keeps its images in memory too.
                    guard let bytes = (imageStore as? InMemoryImageStore)?.bytes(named: name) else {
                        missing.append(name)
                        continue
                    }
                    try OwnerOnlyFile.write(bytes, to: folder + "/" + name)
                    digest = SHA256.hash(bytes)
                }
                copied.append(BackupManifest.File(
                    path: BackupManifest.imagesFolder + "/" + name, bytes: Self.size(of: folder + "/" + name),
                    sha256: SHA256.hex(digest)))
            }
        } catch {
            throw KeyCatError(.storage, "the images copy failed: \(error)", context: ["path": folder])
        }
        return (copied, missing)
    }

    /// The manifest entry of `name` in `directory`: its size and checksum, read back from disk.
    /// Writes the manifest of a Postgres shop's backup directory that `keycat-admin db backup`
    /// filled: `keycat.pgdump`, the simulator's copy when there is one, and the files under
    /// `images/`, each with its size and SHA-256, beside the counts read in `pg_dump`'s own
    /// snapshot. ``verifyBackup(at:)`` then checks it as it checks a SQLite backup's.
    ///
    /// - Throws: `storage` when a file cannot be read or the manifest cannot be written.
    public static func writePostgresManifest(
        in directory: String, createdAt: Date, schemaVersion: Int, serverVersion: String, source: String,
        counts: [String: Int], simulatorPayments: Int?
    ) throws(KeyCatError) -> BackupManifest {
        var files = [try describe(BackupManifest.postgresDumpFile, in: directory)]
        if simulatorPayments != nil { files.append(try describe(BackupManifest.simulatorFile, in: directory)) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + BackupManifest.imagesFolder)) ?? []
        for name in names.sorted() where isImageFileName(name) {
            files.append(try describe(BackupManifest.imagesFolder + "/" + name, in: directory))
        }
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat, createdAt: createdAt, keycatVersion: version, schemaVersion: schemaVersion,
            sqliteVersion: nil, store: "postgres", postgresVersion: serverVersion, source: source, counts: counts,
            simulatorPayments: simulatorPayments, images: files.count - 1 - (simulatorPayments == nil ? 0 : 1),
            missingImages: [], files: files)
        do {
            try OwnerOnlyFile.write(Array(try BackupManifest.encoder.encode(manifest)), to: directory + "/" + BackupManifest.fileName)
        } catch {
            throw KeyCatError(.storage, "the manifest could not be written: \(error)", context: ["path": directory])
        }
        return manifest
    }

    static func describe(_ name: String, in directory: String) throws(KeyCatError) -> BackupManifest.File {
        let path = directory + "/" + name
        do {
            return BackupManifest.File(path: name, bytes: size(of: path), sha256: SHA256.hex(try SHA256.hash(fileAt: path)))
        } catch {
            throw KeyCatError(.storage, "\(path) could not be read: \(error.localizedDescription)", context: ["path": path])
        }
    }

    static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// `<64 hex digits>.<extension>`: the only names the image store writes, so a manifest or a
    /// database row can never make a backup or restore reach outside its folder.
    static func isImageFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 64 && parts[0].allSatisfy(\.isHexDigit)
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isLetter && $0.isASCII }
    }
}
