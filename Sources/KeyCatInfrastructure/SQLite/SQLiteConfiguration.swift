/// How a database is opened and tuned. The defaults are architecture §7: WAL, `synchronous=FULL`,
/// foreign keys on, a five second busy timeout, one writer and a few readers.
package struct SQLiteConfiguration: Sendable {
    /// SQLite's `synchronous` setting (<https://sqlite.org/pragma.html#pragma_synchronous>).
    package enum Synchronous: String, Sendable, CaseIterable {
        /// No fsync: fast, and a power loss can corrupt the database.
        case off = "OFF"
        /// In WAL mode, durable up to the last checkpoint: a power loss may lose the last commits.
        case normal = "NORMAL"
        /// Every commit is fsynced: a committed order survives power loss. The default.
        case full = "FULL"
        /// As `full`, and the directory is synced too.
        case extra = "EXTRA"
    }

    /// Durability of each commit.
    package var synchronous: Synchronous = .full
    /// How long a connection waits for another process's lock before failing with `SQLITE_BUSY`.
    package var busyTimeoutMilliseconds: Int32 = 5_000
    /// The number of read-only connections kept beside the writer. Zero sends reads to the writer.
    package var readerCount: Int = 3
    /// Create the file when it does not exist. When false, a missing file is an error.
    package var createIfMissing: Bool = true
    /// Page cache per connection, in KiB.
    package var cacheSizeKiB: Int = 16_384
    /// Open every connection with `SQLITE_OPEN_READONLY`: nothing is created, migrated or
    /// written (a write fails with `SQLITE_READONLY`), so the file may be read-only and sit in a
    /// read-only directory. See ``SQLiteConnection/init(path:configuration:readOnly:)`` for WAL.
    package var readOnly: Bool = false
    /// The application the file must belong to: checked before the first connection writes
    /// anything, and stamped on a write-open. Nil: any file (tests, raw tools).
    package var application: SQLiteApplication?
    /// Other applications' ids, so a refusal can say whose file it was.
    package var knownApplications: [SQLiteApplication] = []
    /// The name of a registered SQLite VFS to open every connection through
    /// (<https://sqlite.org/vfs.html>, `sqlite3_open_v2`'s `zVfs`). Nil: the platform's default.
    /// The fault-injection tests use it to make chosen reads, writes and syncs fail.
    package var vfsName: String?
    /// What the database's threads are called (`name-0`, `name-1`, …; Linux keeps 15 bytes), so
    /// a profile or `top -H` tells one database's waits from another's.
    package var threadName = "keycat-db"

    package init() {}
}
