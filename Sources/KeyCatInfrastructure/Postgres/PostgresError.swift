/// An error from Postgres or from talking to it, with its parts kept apart: the SQLSTATE
/// (<https://www.postgresql.org/docs/current/errcodes-appendix.html>), the server's primary
/// message, its detail and hint, the constraint it names, and the statement that failed.
///
/// A struct around a private kind, so kinds can be added without breaking callers; ask the
/// `is…` predicates rather than comparing codes.
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// Where the error comes from.
    private enum Kind: Sendable, Equatable {
        /// The server answered with an error; ``sqlState`` says which.
        case server
        /// The connection string or URL could not be parsed.
        case invalidConnectionString
        /// No connection could be made: no server there, refused, timed out, TLS failed…
        case connectionFailed
        /// The server refused the credentials.
        case authenticationFailed
        /// The connection broke while it was in use, or was already broken.
        case connectionLost
        /// The connection broke while `COMMIT` was under way: the transaction may or may not
        /// have been committed, so it must not be run again blindly.
        case commitOutcomeUnknown
        /// The connection was closed by this process.
        case closed
        /// Text that Postgres cannot store (a NUL character), refused before it was sent.
        case invalidText
        /// Postgres answered in a way this client does not expect.
        case unexpectedResponse
    }

    private let kind: Kind
    /// The five-character SQLSTATE, e.g. `23505`; nil for errors that never reached the server.
    package let sqlState: String?
    /// The primary message: the server's (`PG_DIAG_MESSAGE_PRIMARY`) or libpq's.
    package let message: String
    /// The server's optional detail, e.g. `Key (email)=(a@b.kr) already exists.`
    package let detail: String?
    /// The server's optional hint on what to do.
    package let hint: String?
    /// The constraint the error names, e.g. `users_email_key`, when there is one.
    package let constraint: String?
    /// The statement that failed, when there was one.
    package let statement: String?
    /// Whether the connection was unusable after the error (libpq's `CONNECTION_BAD`).
    package let connectionIsBroken: Bool

    private init(
        kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, statement: String? = nil, connectionIsBroken: Bool = false
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.statement = statement
        self.connectionIsBroken = connectionIsBroken
    }

    /// An error the server reported, with its fields.
    static func server(
        sqlState: String?, message: String, detail: String?, hint: String?, constraint: String?,
        statement: String?, connectionIsBroken: Bool
    ) -> PostgresError {
        PostgresError(
            kind: connectionIsBroken && sqlState == nil ? .connectionLost : .server, sqlState: sqlState,
            message: message, detail: detail, hint: hint, constraint: constraint, statement: statement,
            connectionIsBroken: connectionIsBroken)
    }

    static func invalidConnectionString(_ message: String) -> PostgresError {
        PostgresError(kind: .invalidConnectionString, message: message, connectionIsBroken: true)
    }

    /// A failed connection attempt, told apart by libpq's message: libpq keeps no SQLSTATE for
    /// errors during start-up, and the server's authentication failures all read "… authentication
    /// failed for user …" (`auth.c`'s `auth_failed`).
    static func connectionFailed(_ message: String) -> PostgresError {
        let refused = message.contains("authentication failed")
        return PostgresError(
            kind: refused ? .authenticationFailed : .connectionFailed, sqlState: refused ? "28P01" : nil,
            message: message, connectionIsBroken: true)
    }

    static func connectionLost(_ message: String, statement: String?) -> PostgresError {
        PostgresError(kind: .connectionLost, message: message, statement: statement, connectionIsBroken: true)
    }

    /// The connection broke during `COMMIT`: `error` is how.
    static func commitOutcomeUnknown(_ error: PostgresError) -> PostgresError {
        PostgresError(
            kind: .commitOutcomeUnknown, sqlState: error.sqlState,
            message: "the connection broke during COMMIT, so whether it committed is unknown: \(error.message)",
            statement: "COMMIT", connectionIsBroken: true)
    }

    static func closed() -> PostgresError {
        PostgresError(kind: .closed, message: "the connection is closed")
    }

    static func nulInText() -> PostgresError {
        PostgresError(
            kind: .invalidText, sqlState: "22021",
            message: "text parameters cannot contain the NUL character (0x00)",
            hint: "store such values as bytes (bytea)")
    }

    static func unexpectedResponse(_ message: String, statement: String?) -> PostgresError {
        PostgresError(kind: .unexpectedResponse, message: message, statement: statement)
    }

    // MARK: Predicates

    /// The SQLSTATE's class: its first two characters, e.g. `23` for integrity violations.
    package var sqlStateClass: String? { sqlState.map { String($0.prefix(2)) } }

    /// A UNIQUE or PRIMARY KEY constraint failed (23505).
    package var isUniqueViolation: Bool { sqlState == "23505" }
    /// A FOREIGN KEY constraint failed (23503).
    package var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// A CHECK constraint failed (23514).
    package var isCheckViolation: Bool { sqlState == "23514" }
    /// A NOT NULL constraint failed (23502).
    package var isNotNullViolation: Bool { sqlState == "23502" }
    /// Any integrity constraint failed (class 23).
    package var isConstraintViolation: Bool { sqlStateClass == "23" }
    /// A serializable or repeatable-read transaction lost to a concurrent one (40001).
    package var isSerializationFailure: Bool { sqlState == "40001" }
    /// The server broke a deadlock by failing this transaction (40P01).
    package var isDeadlock: Bool { sqlState == "40P01" }
    /// Text the server cannot store: a NUL character or invalid UTF-8 (22021,
    /// `character_not_in_repertoire`, also what Postgres reports for invalid byte sequences).
    package var isInvalidText: Bool { kind == .invalidText || sqlState == "22021" }
    /// The connection string or URL is malformed.
    package var isInvalidConnectionString: Bool { kind == .invalidConnectionString }
    /// No connection could be made (the credentials aside).
    package var isConnectionFailure: Bool { kind == .connectionFailed }
    /// The server refused the credentials (28P01 or 28000).
    package var isAuthenticationFailure: Bool {
        kind == .authenticationFailed || sqlState == "28P01" || sqlState == "28000"
    }
    /// The connection is gone: it broke (`CONNECTION_BAD`), the server reported a connection
    /// exception (class 08), or an administrator or shutdown ended the session (57P01–57P03).
    package var isConnectionLost: Bool {
        kind == .connectionLost || kind == .commitOutcomeUnknown || connectionIsBroken && kind == .server
            || sqlStateClass == "08" || ["57P01", "57P02", "57P03"].contains(sqlState ?? "")
    }
    /// The connection broke during `COMMIT`: the transaction's outcome is unknown.
    package var isCommitOutcomeUnknown: Bool { kind == .commitOutcomeUnknown }
    /// The connection had been closed by this process.
    package var isClosed: Bool { kind == .closed }
    /// The statement was cancelled: `statement_timeout` or a cancel request (57014).
    package var isQueryCanceled: Bool { sqlState == "57014" }

    /// Whether running the whole transaction again may succeed: a serialization failure, a
    /// deadlock, or a connection lost before `COMMIT` was sent (the server rolled it back).
    package var isTransientTransactionFailure: Bool {
        isSerializationFailure || isDeadlock || (isConnectionLost && !isCommitOutcomeUnknown)
    }

    package var description: String {
        var text = "Postgres error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let detail { text += " (\(detail))" }
        if let hint { text += " — hint: \(hint)" }
        if let statement { text += " — in «\(statement)»" }
        return text
    }
}
