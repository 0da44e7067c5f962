import KeyCatData
import KeyCatInfrastructure

/// How far a backup has got: pages copied of the pages in the database.
public struct BackupProgress: Sendable, Hashable {
    public var copiedPages: Int
    public var totalPages: Int

    public init(copiedPages: Int, totalPages: Int) {
        self.copiedPages = copiedPages
        self.totalPages = totalPages
    }

    /// 0…1, for a progress bar.
    public var fraction: Double { totalPages == 0 ? 1 : Double(copiedPages) / Double(totalPages) }
}

extension KeyCat {
    /// Writes a consistent copy of the database to a new file at `path` while the shop keeps
    /// running: SQLite's online backup (<https://sqlite.org/backup.html>), copied from one
    /// read snapshot in steps of `pagesPerStep` pages, so writers in this and other processes
    /// are never blocked and orders committed during the backup are simply not in the copy.
    /// The copy is a complete KeyCat database (open it, or run `db check` on it), created
    /// owner-only (0600). The PG simulator's file and the images folder are not part of it:
    /// ``createBackup(in:by:progress:)`` backs up all three (`keycat-admin db backup`), and
    /// this database-only copy stays for `db backup --database-only` and for callers that
    /// pair a database copy with a simulator file of their own.
    ///
    /// - Parameter progress: called after each step (on the calling thread).
    /// - Throws: `forbidden` unless an admin calls; `storage` when a file already exists at
    ///   `path` (a backup never overwrites), when it cannot be created, or when SQLite fails.
    ///   A failed backup leaves no partial file behind.
    public func backup(to path: String, pagesPerStep: Int = 128, by principal: Principal,
                       progress: (BackupProgress) -> Void = { _ in }) async throws(KeyCatError) {
        try principal.require(.admin, to: "back up the database")
        guard pagesPerStep >= 1 else { throw .validation("pages_per_step", "a backup copies at least one page per step") }
        do {
            try await database.backup(to: path, pagesPerStep: pagesPerStep) { step in
                progress(BackupProgress(copiedPages: step.copiedPages, totalPages: step.totalPages))
            }
        } catch let error as SQLiteBackupError {
            switch error {
            case .destinationExists:
                throw KeyCatError(.storage, error.description, context: ["path": path, "reason": "exists"])
            case .cannotCreate:
                throw KeyCatError(.storage, error.description, context: ["path": path])
            }
        } catch {
            let storageError = KeyCatError.storage(error)
            throw KeyCatError(storageError.code, "backup failed: \(storageError.message)", context: storageError.context)
        }
    }
}
