import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Where a restore puts a backup: the database path and the companions KeyCat keeps beside it.
struct RestoreTarget {
    let databasePath: String

    var simulatorPath: String { PGSimulator.storagePath(besideDatabase: databasePath) }
    var imagesPath: String { FileSystemImageStore.directory(besideDatabaseAt: databasePath).relativePath }

    /// Every path a restore replaces. A stale `-wal` left beside a restored file would be
    /// replayed into it by SQLite and corrupt it, so the journals count as parts of the database.
    var parts: [String] {
        let journals = ["", "-wal", "-shm", "-journal"]
        return journals.map { databasePath + $0 } + journals.map { simulatorPath + $0 } + [imagesPath]
    }

    /// The parts that exist (a dangling symbolic link counts).
    var existingParts: [String] {
        parts.filter { (try? FileManager.default.attributesOfItem(atPath: $0)) != nil }
    }

    /// The folder the target lives in.
    private var folder: String {
        let parent = (databasePath as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// A new owner-only folder beside the target (same file system, so parts move in with
    /// `rename(2)`), hidden by its leading dot.
    func makeStagingFolder() throws(KeyCatError) -> String {
        let name = ".\((databasePath as NSString).lastPathComponent).restore-\(UUID().uuidString)"
        let path = folder + "/" + name
        do {
            try OwnerOnlyFile.createDirectory(path)
        } catch {
            throw KeyCatError(.storage, "cannot restore into \(folder): \(error)", context: ["path": databasePath])
        }
        return path
    }

    /// Moves the existing parts aside into `staging/replaced`, then the staged parts into
    /// place (images, simulator, database last). Any failed move undoes the ones before it.
    func replace(with staging: String, simulator: Bool) throws(KeyCatError) {
        var done: [(from: String, to: String)] = []
        func move(_ from: String, _ to: String) throws(KeyCatError) {
            guard rename(from, to) == 0 else {
                let reason = String(cString: strerror(errno))
                for step in done.reversed() { _ = rename(step.to, step.from) }
                throw KeyCatError(.storage, "cannot move \(from) to \(to): \(reason); the target was left as it was",
                                  context: ["path": databasePath])
            }
            done.append((from, to))
        }
        let aside = staging + "/replaced"
        do {
            try OwnerOnlyFile.createDirectory(aside)
        } catch {
            throw KeyCatError(.storage, "cannot restore: \(error)", context: ["path": databasePath])
        }
        for (index, part) in existingParts.enumerated() { try move(part, aside + "/\(index)") }
        try move(staging + "/" + BackupManifest.imagesFolder, imagesPath)
        if simulator { try move(staging + "/" + BackupManifest.simulatorFile, simulatorPath) }
        try move(staging + "/" + BackupManifest.databaseFile, databasePath)
    }
}
