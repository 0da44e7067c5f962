import KeyCatDomain
import KeyCatInfrastructure

extension KeyCatError {
    /// Turns a Postgres failure into the domain's error, as ``storage(_:)`` does SQLite's: a
    /// unique violation is ``KeyCatError/Code/duplicate``; text Postgres cannot store (a NUL
    /// character, which SQLite keeps) is ``KeyCatError/Code/validation``, refused before it
    /// reached the server; the rest is a storage error that keeps the SQLSTATE.
    static func postgres(_ error: PostgresError) -> KeyCatError {
        if error.isUniqueViolation {
            return KeyCatError(.duplicate, "it already exists", context: ["sql_state": error.sqlState ?? ""])
        }
        if error.isInvalidText {
            return KeyCatError.validation("text", "text must not contain NUL characters")
        }
        if error.isQueryCanceled {
            // A cancelled task's statement (or one past the server's statement_timeout): rolled back.
            return KeyCatError(.storage, "the storage call was cancelled and changed nothing: \(error.message)",
                               context: ["sql_state": error.sqlState ?? ""])
        }
        return KeyCatError(.storage, "storage failed: \(error.message)", context: ["sql_state": error.sqlState ?? ""])
    }
}
