/// What an error from either store can be asked, whichever raised it (``SQLiteError``,
/// ``PostgresError``), so code written once over ``SQLDatabase`` asks instead of casting to each
/// store's type — the shape of fluent-kit's `DatabaseError`.
///
/// Each store's own type keeps everything it knows (SQLite's extended code, Postgres's SQLSTATE,
/// the message, the SQL); this protocol is the part every store can answer.
package protocol DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The store's own words.
    var message: String { get }
    /// The store's code for the failure, under the context key logs expect: `sqlite_code` with
    /// SQLite's extended result code, `sql_state` with Postgres's SQLSTATE.
    var codeContext: (key: String, value: String) { get }
    /// A unique or primary-key constraint refused the row.
    var isUniqueViolation: Bool { get }
    /// The statement was stopped before it finished — its task was cancelled, or a timeout
    /// ran out — and its transaction changed nothing.
    var isCancelled: Bool { get }
    /// Text the store cannot hold (Postgres refuses NUL characters; SQLite holds any).
    var isUnstorableText: Bool { get }
    /// The file or server is there but is not a database (SQLite's `SQLITE_NOTADB`).
    var isNotADatabase: Bool { get }
    /// The database could not be opened or reached at all.
    var isCannotOpen: Bool { get }
    /// Another connection held a lock for longer than this one was set to wait for it
    /// (SQLite's busy timeout, `SQLITE_BUSY`; Postgres's `lock_timeout`, `55P03`), and the
    /// statement changed nothing.
    var isLockWaitExpired: Bool { get }
    /// The transaction lost to others running beside it (a serialization failure, a deadlock)
    /// or to a connection lost before `COMMIT`, and running it again may succeed: Postgres's,
    /// once its retries (``PostgresConfiguration/maximumTransactionAttempts``) are spent.
    /// Never on SQLite, whose one writer runs the writes one after another.
    var isTransientTransactionFailure: Bool { get }
}

extension SQLiteError: DatabaseError {
    package var codeContext: (key: String, value: String) { ("sqlite_code", "\(extendedCode)") }
    package var isCancelled: Bool { isInterrupted }
    package var isUnstorableText: Bool { false }
    package var isLockWaitExpired: Bool { isBusy }
    package var isTransientTransactionFailure: Bool { false }
}

extension PostgresError: DatabaseError {
    package var codeContext: (key: String, value: String) { ("sql_state", sqlState ?? "") }
    package var isCancelled: Bool { isQueryCanceled }
    package var isUnstorableText: Bool { isInvalidText }
    package var isNotADatabase: Bool { false }
    package var isCannotOpen: Bool { isConnectionFailure || isInvalidConnectionString || isAuthenticationFailure }
    package var isLockWaitExpired: Bool { sqlState == "55P03" }
}
