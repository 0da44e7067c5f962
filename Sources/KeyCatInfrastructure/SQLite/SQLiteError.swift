internal import CSQLite

/// An error reported by SQLite, with everything needed to understand it later: the extended
/// result code (<https://sqlite.org/rescode.html>), SQLite's own message and the statement that
/// failed.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    package let extendedCode: Int32
    /// SQLite's message for the failure (`sqlite3_errmsg`).
    package let message: String
    /// The SQL being prepared or run, when there was one.
    package let sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Reads the error state of a connection after a call returned `code`.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // The connection's error code can lag behind the call's (e.g. after sqlite3_reset);
        // trust the call's code when the two disagree on the primary code.
        let resolved = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(extendedCode: resolved, message: text, sql: sql)
    }

    /// The primary result code (the low byte of the extended one), e.g. `SQLITE_CONSTRAINT`.
    package var primaryCode: Int32 { extendedCode & 0xFF }

    /// The database was locked by another connection for longer than the busy timeout.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// A UNIQUE or PRIMARY KEY constraint failed.
    package var isUniqueViolation: Bool {
        extendedCode == Self.constraintUnique || extendedCode == Self.constraintPrimaryKey
    }

    // Extended codes are C macros built from expressions, which Swift does not import.
    private static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    /// A CHECK, FOREIGN KEY, NOT NULL or other constraint failed.
    package var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// The file exists but is not a SQLite database (or is encrypted).
    package var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    /// A write to a file opened read-only, or one this process may not write (or whose
    /// directory it may not write, for the `-wal` and `-shm` files).
    package var isReadOnly: Bool { primaryCode == SQLITE_READONLY }
    /// The statement was stopped before its end because the task it ran for was cancelled
    /// (see ``SQLiteConnection``'s progress handler on readers). It changed nothing.
    package var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }
    /// The file could not be opened: missing, a directory, or not permitted.
    package var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }

    package var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " — in «\(sql)»" }
        return text
    }
}
