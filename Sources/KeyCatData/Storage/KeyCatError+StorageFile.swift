import Foundation
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCatError {
    /// Turns a failure to open, identify or migrate the SQLite file at `path` into a storage error
    /// whose message names the file and says what to do; SQLite's code and words stay in the
    /// context (`path`, `sqlite_code`, `sqlite_message`) for logs. What only a file can answer
    /// (the diagnosis looks at the file system) is asked of ``SQLiteError`` itself; anything
    /// else goes through the store-neutral ``storage(_:)``.
    package static func storage(_ error: any Error, path: String) -> KeyCatError {
        switch error {
        case let error as SQLiteForeignFileError:
            return KeyCatError(.storage, error.description, context: [
                "path": path, "application_id": String(format: "0x%08X", error.foundID)])
        case let error as SQLiteError where error.isNotADatabase || error.isCannotOpen || error.isReadOnly:
            return KeyCatError(.storage, StorageFileDiagnosis(path: path).explain(error), context: [
                "path": path, "sqlite_code": "\(error.extendedCode)", "sqlite_message": error.message])
        case let error as SQLiteError:
            return KeyCatError(.storage, "\(path): \(error.message)", context: [
                "path": path, "sqlite_code": "\(error.extendedCode)", "sqlite_message": error.message])
        case let error as SchemaMigrationError:
            return KeyCatError(.storage, "\(path): \(error)", context: ["path": path])
        default:
            let converted = storage(error)
            return KeyCatError(converted.code, converted.message, context: converted.context.merging(["path": path]) { $1 })
        }
    }
}

/// Why SQLite could not open, read or write a database file, in words an operator can act on.
/// Looks at the file and its directory as this process sees them (so as root, where permissions
/// do not bind, it falls back to SQLite's own words).
struct StorageFileDiagnosis {
    /// The questions the diagnosis asks of the file system; tests answer them for a non-root
    /// user's view.
    struct FileSystem {
        var exists: (String) -> Bool
        var isDirectory: (String) -> Bool
        var isReadable: (String) -> Bool
        var isWritable: (String) -> Bool

        static var live: FileSystem {
            let files = FileManager.default
            return FileSystem(
                exists: { files.fileExists(atPath: $0) },
                isDirectory: { path in
                    var directory: ObjCBool = false
                    return files.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
                },
                isReadable: { files.isReadableFile(atPath: $0) },
                isWritable: { files.isWritableFile(atPath: $0) })
        }
    }

    let path: String
    var files: FileSystem = .live

    private var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private var fileName: String { (path as NSString).lastPathComponent }

    func explain(_ error: SQLiteError) -> String {
        if error.isNotADatabase {
            return "\(path) is not a KeyCat database: it is not a SQLite file at all (SQLite says: \(error.message)). "
                + "Nothing was changed; check the path"
        }
        let exists = files.exists(path)
        if error.isCannotOpen {
            if !files.exists(directory) {
                return "cannot open \(path): the directory \(directory) does not exist"
            }
            if exists && files.isDirectory(path) { return "cannot open \(path): it is a directory, not a database file" }
            if !exists && !files.isWritable(directory) {
                return "cannot create \(path): the directory \(directory) is not writable"
            }
            if !exists { return "no database at \(path) (run 'keycat-admin init' to create one, or check the path)" }
            if !files.isReadable(path) { return "cannot open \(path): this user may not read the file" }
            if !files.isWritable(directory) {
                return "cannot open \(path): the directory \(directory) is not writable; SQLite needs to create "
                    + "\(fileName)-wal and \(fileName)-shm beside the file"
            }
            return "cannot open \(path) (SQLite says: \(error.message))"
        }
        // SQLITE_READONLY
        if exists && !files.isWritable(path) {
            return "cannot write \(path): the file is read-only (make it writable, or use a command that only reads)"
        }
        if !files.isWritable(directory) {
            return "cannot write \(path): the directory \(directory) is not writable; SQLite needs to create "
                + "\(fileName)-wal beside the file"
        }
        return "cannot write \(path): it was opened read-only, or SQLite says: \(error.message)"
    }
}
