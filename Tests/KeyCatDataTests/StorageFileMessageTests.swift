import Foundation
import KeyCatDomain
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// Open failures say which file and what to do. The file system is described as a non-root user
/// would see it (the tests run as root, where permissions do not bind).
///
/// SQLite only: messages about a database file and its directory.
@Suite("Storage errors name the file and the fix")
struct StorageFileMessageTests {
    /// A view where `/srv/shop` exists, holds `keycat.db`, and is writable only if `writableDirectory`.
    private func diagnosis(writableDirectory: Bool, writableFile: Bool = true, fileExists: Bool = true) -> StorageFileDiagnosis {
        var diagnosis = StorageFileDiagnosis(path: "/srv/shop/keycat.db")
        diagnosis.files = .init(
            exists: { $0 == "/srv/shop" || ($0 == "/srv/shop/keycat.db" && fileExists) },
            isDirectory: { $0 == "/srv/shop" },
            isReadable: { _ in true },
            isWritable: { $0 == "/srv/shop" ? writableDirectory : writableFile })
        return diagnosis
    }

    private let readOnly = SQLiteError(extendedCode: 8, message: "attempt to write a readonly database")
    private let cannotOpen = SQLiteError(extendedCode: 14, message: "unable to open database file")

    @Test("a write refused because of the directory names the directory and the -wal SQLite needs")
    func directoryNotWritable() {
        let message = diagnosis(writableDirectory: false).explain(readOnly)
        #expect(message == "cannot write /srv/shop/keycat.db: the directory /srv/shop is not writable; "
                + "SQLite needs to create keycat.db-wal beside the file")
    }

    @Test("a read-only file is told apart from a read-only directory")
    func fileNotWritable() {
        #expect(diagnosis(writableDirectory: true, writableFile: false).explain(readOnly)
                .contains("the file is read-only"))
    }

    @Test("a file that cannot be created names its directory")
    func cannotCreate() {
        #expect(diagnosis(writableDirectory: false, fileExists: false).explain(cannotOpen)
                == "cannot create /srv/shop/keycat.db: the directory /srv/shop is not writable")
        #expect(diagnosis(writableDirectory: true, fileExists: false).explain(cannotOpen)
                .hasPrefix("no database at /srv/shop/keycat.db"))
    }

    @Test("the message is for people; SQLite's code and words go in the context")
    func contextKeepsDetails() {
        let error = KeyCatError.storage(SQLiteError(extendedCode: 26, message: "file is not a database"), path: "/srv/photo.db")
        #expect(error.code == .storage)
        #expect(error.message.hasPrefix("/srv/photo.db is not a KeyCat database"))
        #expect(error.context == ["path": "/srv/photo.db", "sqlite_code": "26", "sqlite_message": "file is not a database"])
    }
}
