import Foundation

extension SQLiteDatabase {
    /// ``blockingBackup(to:pagesPerStep:progress:snapshot:)`` on the database's own threads: the
    /// copy's steps wait for the disk there, never on the caller's thread.
    package func backup(to destination: String, pagesPerStep: Int = 128,
                        progress: (SQLiteBackupProgress) -> Void = { _ in },
                        snapshot: (SQLiteConnection) throws -> Void = { _ in }) async throws {
        try await withTaskExecutorPreference(threads) {
            try blockingBackup(to: destination, pagesPerStep: pagesPerStep, progress: progress, snapshot: snapshot)
        }
    }

    /// Copies the database into a new file at `destination` with SQLite's online backup API,
    /// while other connections (in this process or others) go on reading and writing.
    ///
    /// The copy is one consistent snapshot: a dedicated read-only connection opens a read
    /// transaction and every backup step reads inside it, so commits made meanwhile are not in
    /// the copy and never force the backup to restart (WAL lets writers commit beside it). An
    /// in-memory database is copied from its writer connection instead, holding the writer for
    /// the duration. The copy keeps the source's WAL journal mode.
    ///
    /// - Parameters:
    ///   - destination: the new file, created owner-only (0600) whatever the umask. It must not
    ///     exist: a backup never overwrites anything.
    ///   - pagesPerStep: pages copied per `sqlite3_backup_step` (at least 1).
    ///   - progress: called after each step.
    ///   - snapshot: called once the pages are copied, with the connection that read them, still
    ///     inside the backup's read transaction: what it queries is exactly what the copy holds
    ///     (row counts for a manifest), without opening the copy.
    /// - Throws: ``SQLiteBackupError/destinationExists(_:)`` when something is at `destination`;
    ///   ``SQLiteBackupError/cannotCreate(_:reason:)`` when the file cannot be created; a
    ///   ``SQLiteError`` when SQLite fails. A failed backup removes the partial file.
    package func blockingBackup(to destination: String, pagesPerStep: Int = 128,
                                progress: (SQLiteBackupProgress) -> Void = { _ in },
                                snapshot: (SQLiteConnection) throws -> Void = { _ in }) throws {
        do {
            try OwnerOnlyFile.create(destination)
        } catch {
            switch error {
            case let .exists(path): throw SQLiteBackupError.destinationExists(path)
            case let .system(path, reason): throw SQLiteBackupError.cannotCreate(path, reason: reason)
            }
        }
        do {
            var destinationConfiguration = SQLiteConfiguration()
            destinationConfiguration.createIfMissing = false
            let target = try SQLiteConnection(path: destination, configuration: destinationConfiguration)
            defer { target.close() }
            // A WAL destination must share the source's page size; a rollback journal need not
            // (the copy still comes out in WAL mode: the journal mode is in the copied header).
            try target.execute("PRAGMA journal_mode = DELETE")
            let step = Int32(clamping: max(1, pagesPerStep))
            if Self.isInMemory(path) {
                try withWriter { source in
                    try SQLiteBackup.copy(from: source, to: target, pagesPerStep: step, progress: progress)
                    try snapshot(source)
                }
            } else {
                var sourceConfiguration = configuration
                sourceConfiguration.createIfMissing = false
                let source = try SQLiteConnection(path: path, configuration: sourceConfiguration, readOnly: true)
                defer { source.close() }
                try source.readTransaction { connection in
                    // A deferred transaction takes its snapshot at the first read.
                    try connection.execute("SELECT count(*) FROM sqlite_schema")
                    try SQLiteBackup.copy(from: connection, to: target, pagesPerStep: step, progress: progress)
                    try snapshot(connection)
                }
            }
        } catch {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: destination + suffix) }
            throw error
        }
    }
}

/// Why a backup could not start.
package enum SQLiteBackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Something already exists at the destination; backups never overwrite.
    case destinationExists(String)
    /// The destination file could not be created (missing folder, no permission…).
    case cannotCreate(String, reason: String)

    package var description: String {
        switch self {
        case let .destinationExists(path): "\(path) already exists; a backup never overwrites a file"
        case let .cannotCreate(path, reason): "cannot create \(path): \(reason)"
        }
    }
}
