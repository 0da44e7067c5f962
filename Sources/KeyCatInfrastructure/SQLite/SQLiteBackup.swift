internal import CSQLite
import Foundation

/// How far an online backup has got, reported after each step.
package struct SQLiteBackupProgress: Sendable, Hashable {
    /// Pages copied so far.
    package var copiedPages: Int
    /// Pages in the source database (it may grow or shrink while writers run).
    package var totalPages: Int
}

/// One run of SQLite's online backup API (<https://sqlite.org/backup.html>): owns the
/// `sqlite3_backup *` between `sqlite3_backup_init` and `sqlite3_backup_finish`.
///
/// Not `Sendable`: it runs on the thread that holds the source connection.
final class SQLiteBackup {
    /// How long to wait before retrying a step that met a lock (`SQLITE_BUSY`/`SQLITE_LOCKED`).
    static let retryPause: useconds_t = 10_000
    /// How many locked steps in a row are tolerated before giving up (about five seconds).
    static let maximumRetries = 500

    private var handle: OpaquePointer?

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { finish() }

    /// Copies every page of `source`'s main database into `destination`'s, `pagesPerStep` at a
    /// time, calling `progress` after each step.
    ///
    /// A step that meets a lock is retried after a short sleep. When the source connection holds
    /// a read transaction, every step reads the same snapshot, so the copy is consistent however
    /// many commits other connections make meanwhile, and the backup never has to restart.
    static func copy(from source: SQLiteConnection, to destination: SQLiteConnection, pagesPerStep: Int32,
                     progress: (SQLiteBackupProgress) -> Void) throws {
        let sourceHandle = try source.rawHandle()
        let destinationHandle = try destination.rawHandle()
        guard let handle = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
            // sqlite3_backup_init reports its failure on the destination connection.
            throw SQLiteError(code: sqlite3_errcode(destinationHandle), connection: destinationHandle)
        }
        let backup = SQLiteBackup(handle: handle)
        var retries = 0
        while true {
            let code = sqlite3_backup_step(handle, pagesPerStep)
            switch code {
            case SQLITE_OK, SQLITE_DONE:
                retries = 0
                let total = Int(sqlite3_backup_pagecount(handle))
                progress(SQLiteBackupProgress(copiedPages: total - Int(sqlite3_backup_remaining(handle)), totalPages: total))
                if code == SQLITE_DONE { return try backup.finishChecked(destination: destinationHandle) }
            case _ where (code & 0xFF) == SQLITE_BUSY || (code & 0xFF) == SQLITE_LOCKED:
                retries += 1
                guard retries <= maximumRetries else {
                    backup.finish()
                    throw SQLiteError(extendedCode: code, message: "the backup kept meeting a locked database; try again later")
                }
                usleep(retryPause)
            default:
                backup.finish()
                throw SQLiteError(code: code, connection: destinationHandle)
            }
        }
    }

    /// Finishes the backup and reports an error the whole run ended with.
    private func finishChecked(destination: OpaquePointer) throws {
        guard let handle else { return }
        self.handle = nil
        let code = sqlite3_backup_finish(handle)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: destination) }
    }

    /// Releases the backup handle. Harmless twice.
    private func finish() {
        if let handle {
            sqlite3_backup_finish(handle)
            self.handle = nil
        }
    }
}
