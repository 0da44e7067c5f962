import KeyCatDomain
import KeyCatInfrastructure

extension KeyCatError {
    /// Turns a storage failure into the domain's error, keeping SQLite's code and message in the
    /// context for logs. Unique-constraint failures become ``KeyCatError/Code/duplicate``.
    package static func storage(_ error: any Error) -> KeyCatError {
        switch error {
        case let error as KeyCatError:
            return error
        case let error as SQLiteError where error.isUniqueViolation:
            return KeyCatError(.duplicate, "it already exists", context: ["sqlite_code": "\(error.extendedCode)"])
        case let error as SQLiteError where error.isNotADatabase:
            return KeyCatError(.storage, "the file is not a KeyCat database (\(error.message))",
                               context: ["sqlite_code": "\(error.extendedCode)"])
        case let error as SQLiteError where error.isCannotOpen:
            return KeyCatError(.storage, "the database file cannot be opened (\(error.message))",
                               context: ["sqlite_code": "\(error.extendedCode)"])
        case let error as SQLiteError where error.isInterrupted:
            return KeyCatError(.storage, "the read was stopped because its task was cancelled; it changed nothing",
                               context: ["sqlite_code": "\(error.extendedCode)"])
        case let error as SQLiteError:
            return KeyCatError(.storage, "storage failed: \(error.message)",
                               context: ["sqlite_code": "\(error.extendedCode)"])
        case let error as PostgresError:
            return postgres(error)
        case let error as SchemaMigrationError:
            return KeyCatError(.storage, "\(error)")
        case is CancellationError:
            // The task was cancelled while it waited for a connection or between retries.
            return KeyCatError(.storage, "the storage call was cancelled before it ran and changed nothing")
        default:
            return KeyCatError(.internalError, "unexpected failure: \(error)")
        }
    }
}

/// Runs `body`, converting any storage error into a ``KeyCatError``.
@discardableResult
package func storage<Result>(_ body: () throws -> Result) throws(KeyCatError) -> Result {
    do {
        return try body()
    } catch {
        throw KeyCatError.storage(error)
    }
}

/// Runs `body`, which waits for a database, converting any storage error into a ``KeyCatError``.
@discardableResult
package func storage<Result>(_ body: () async throws -> Result) async throws(KeyCatError) -> Result {
    do {
        return try await body()
    } catch {
        throw KeyCatError.storage(error)
    }
}
