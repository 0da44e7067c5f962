import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// The files KeyCat keeps for the database at `databasePath` that group or others may read
    /// or write: the database and its `-wal`/`-shm`/`-journal`, the PG simulator's file and its
    /// journals, the images folder and the files in it. One line each, naming the file, its
    /// mode and the `chmod` that makes it owner-only.
    ///
    /// KeyCat creates all of them owner-only whatever the umask; files created by an older
    /// KeyCat, copied by hand or `chmod`ed since may not be. The database holds the
    /// token-signing and cursor keys, password hashes and refresh-token digests, so anyone who
    /// can read it can mint access tokens. This is a warning (``HealthReport/permissionWarnings``),
    /// not a failure: the shop works, and group access may be deliberate.
    public static func filePermissionWarnings(databaseAt databasePath: String) -> [String] {
        guard !databasePath.isEmpty, databasePath != ":memory:" else { return [] }
        let journals = ["", "-wal", "-shm", "-journal"]
        let simulator = PGSimulator.storagePath(besideDatabase: databasePath)
        let paths = journals.map { databasePath + $0 } + journals.map { simulator + $0 }
            + [FileSystemImageStore.directory(besideDatabaseAt: databasePath).relativePath]
        return FilePermissions.exposures(of: paths).map(\.description)
    }
}
