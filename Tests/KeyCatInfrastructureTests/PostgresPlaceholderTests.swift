import Testing
@testable import KeyCatInfrastructure

@Suite("Postgres placeholders and errors")
struct PostgresPlaceholderTests {
    @Test("SQLite's ? markers are numbered for Postgres outside literals, identifiers and comments", arguments: [
        ("SELECT 1", "SELECT 1"),
        ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = $1 AND b = $2"),
        ("VALUES (?,?,?)", "VALUES ($1,$2,$3)"),
        ("SELECT ?::int", "SELECT $1::int"),
        ("SELECT '?', ?", "SELECT '?', $1"),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"),
        ("SELECT E'\\' ?', ?", "SELECT E'\\' ?', $1"),
        ("SELECT \"odd?col\", \"a\"\"?\" FROM t WHERE x = ?", "SELECT \"odd?col\", \"a\"\"?\" FROM t WHERE x = $1"),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"),
        ("SELECT ? /* a? /* nested? */ still? */ , ?", "SELECT $1 /* a? /* nested? */ still? */ , $2"),
        ("SELECT $$ ? $$, $tag$ '? $tag$, ?", "SELECT $$ ? $$, $tag$ '? $tag$, $1"),
        ("SELECT $1, $2", "SELECT $1, $2"),
        ("SELECT ?2, ?1, ?", "SELECT $2, $1, $3"),
        ("WHERE a >= ?1 AND a < ?2 OR b = ?1", "WHERE a >= $1 AND a < $2 OR b = $1"),
        ("SELECT 'unterminated ?", "SELECT 'unterminated ?"),
        ("SELECT 'a' || ? || 'b'", "SELECT 'a' || $1 || 'b'"),
        ("SELECT '키캣' || ?", "SELECT '키캣' || $1"),
    ])
    func numbering(sqlite: String, postgres: String) {
        #expect(PostgresPlaceholders.numbered(sqlite) == postgres)
    }

    private static func serverError(_ sqlState: String, broken: Bool = false) -> PostgresError {
        .server(sqlState: sqlState, message: "m", detail: nil, hint: nil, constraint: nil, statement: "S",
                connectionIsBroken: broken)
    }

    @Test("each SQLSTATE answers its own predicate", arguments: [
        ("23505", \PostgresError.isUniqueViolation),
        ("23503", \PostgresError.isForeignKeyViolation),
        ("23514", \PostgresError.isCheckViolation),
        ("23502", \PostgresError.isNotNullViolation),
        ("40001", \PostgresError.isSerializationFailure),
        ("40P01", \PostgresError.isDeadlock),
        ("22021", \PostgresError.isInvalidText),
        ("08006", \PostgresError.isConnectionLost),
        ("57P01", \PostgresError.isConnectionLost),
        ("28P01", \PostgresError.isAuthenticationFailure),
        ("57014", \PostgresError.isQueryCanceled),
    ] as [(String, any KeyPath<PostgresError, Bool> & Sendable)])
    func predicates(sqlState: String, predicate: any KeyPath<PostgresError, Bool> & Sendable) {
        #expect(Self.serverError(sqlState)[keyPath: predicate])
        #expect(!Self.serverError("42601")[keyPath: predicate])
    }

    @Test("transient failures are the ones a transaction may run again after")
    func transientFailures() {
        #expect(Self.serverError("40001").isTransientTransactionFailure)
        #expect(Self.serverError("40P01").isTransientTransactionFailure)
        #expect(Self.serverError("XX000", broken: true).isTransientTransactionFailure)
        #expect(!Self.serverError("23505").isTransientTransactionFailure)
        let lostCommit = PostgresError.commitOutcomeUnknown(Self.serverError("57P01", broken: true))
        #expect(lostCommit.isConnectionLost && lostCommit.isCommitOutcomeUnknown)
        #expect(!lostCommit.isTransientTransactionFailure)
    }

    @Test("an error's description keeps SQLSTATE, message, detail, hint and statement apart")
    func description() {
        let error = PostgresError.server(
            sqlState: "23505", message: "duplicate key value", detail: "Key (id)=(1) already exists.",
            hint: "pick another", constraint: "t_pkey", statement: "INSERT …", connectionIsBroken: false)
        #expect("\(error)" == "Postgres error 23505: duplicate key value (Key (id)=(1) already exists.) — hint: pick another — in «INSERT …»")
    }
}
