import KeyCatDomain
import KeyCatInfrastructure

extension KeyCatError {
    /// Turns a storage failure of either store into the domain's error: the one place this is
    /// done. A ``DatabaseError`` is asked what it is (never cast to a store's type); the store's
    /// code stays in the context for logs (`sqlite_code` or `sql_state`). Unique-constraint
    /// failures become ``KeyCatError/Code/duplicate``; text a store cannot hold, `validation`.
    package static func storage(_ error: any Error) -> KeyCatError {
        switch error {
        case let error as KeyCatError:
            return error
        case let error as any DatabaseError:
            return storage(database: error)
        case let error as SchemaMigrationError:
            return KeyCatError(.storage, "\(error)")
        case is CancellationError:
            // The task was cancelled while it waited for a connection or between retries.
            return KeyCatError(.storage, "the storage call was cancelled before it ran and changed nothing")
        default:
            return KeyCatError(.internalError, "unexpected failure: \(error)")
        }
    }

    private static func storage(database error: any DatabaseError) -> KeyCatError {
        let code = error.codeContext
        let context = [code.key: code.value]
        if error.isUniqueViolation { return KeyCatError(.duplicate, "it already exists", context: context) }
        if error.isUnstorableText { return KeyCatError.validation("text", "text must not contain NUL characters") }
        if error.isNotADatabase {
            return KeyCatError(.storage, "the file is not a KeyCat database (\(error.message))", context: context)
        }
        if error.isCannotOpen {
            return KeyCatError(.storage, "the database cannot be opened (\(error.message))", context: context)
        }
        if error.isCancelled {
            // A cancelled task's statement (or one past a statement timeout): rolled back.
            return KeyCatError(.storage, "the storage call was stopped because its task was cancelled, and changed nothing: \(error.message)",
                               context: context)
        }
        return KeyCatError(.storage, "storage failed: \(error.message)", context: context)
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
