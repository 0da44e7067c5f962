internal import CLibPQ
import Foundation

extension PostgresConnection {
    /// Sends `statements` to the server together and waits once for all their answers: one round
    /// trip, however many statements (libpq's pipeline mode,
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>).
    ///
    /// Every statement runs as a server-side prepared statement, prepared under a generated name
    /// the first time this connection sees its text: the `Parse` travels in the same exchange as
    /// the first execution, so preparing costs no round trip of its own. A `BEGIN` a transaction
    /// left pending (``transaction(isolation:_:)`` sends it with the first statement, not alone)
    /// goes first, and the answers to a read-only `COMMIT` sent earlier without waiting are read
    /// first. Parameters go in libpq's text format (bytes in binary); results come back as text,
    /// read by ``PostgresRow``.
    ///
    /// The statements run in order. The first that fails is thrown and those after it are not run
    /// (the server skips the rest of a pipeline after an error); outside a transaction, the
    /// statements of one exchange commit or fail together, as one implicit transaction.
    ///
    /// `endingTransaction`, in the outermost transaction, sends its `COMMIT` after the statements
    /// (when they all ran): a lost connection is then ``PostgresError/isCommitOutcomeUnknown``,
    /// since the `COMMIT` may have run, and a statement sent afterwards in that transaction is
    /// refused (it would run outside it).
    func exchange(_ statements: [PostgresStatement], endingTransaction: Bool = false) throws(PostgresError) -> [PostgresResult] {
        let connection = try open()
        try readUnansweredCommit(on: connection)
        guard !transactionCommitted else {
            throw .unexpectedResponse("a statement after its transaction's last batch, which committed it",
                                      statement: statements.first?.sql)
        }
        let commits = endingTransaction && transactionDepth == 1
        guard commits else { return try exchange(statements, on: connection, committing: false) }
        do {
            let results = try ending { () throws(PostgresError) in try exchange(statements, on: connection, committing: true) }
            transactionCommitted = true
            return results
        } catch where error.isConnectionLost {
            throw .commitOutcomeUnknown(error)
        }
    }

    /// Waits until libpq holds a whole answer, so that the next `PQgetResult` returns at once.
    /// The socket is polled in slices of 50 ms. When a whole slice passes without an answer and
    /// the task this runs for is cancelled, the statement in flight is cancelled on the server
    /// (`PQcancel`, once an exchange), and its answer, an error (57014), arrives as any other:
    /// the transaction then rolls back and the connection goes back to its pool clean.
    ///
    /// Only a statement that is *waiting* (for a lock, a slow plan, a server far away) is
    /// cancelled: a cancelled task's quick statements still run, so that its bookkeeping (an
    /// idempotency key released, so the client's retry is not refused for the key's lease) is
    /// not lost with it. An exchange that ends a transaction is never cancelled: a `COMMIT`'s
    /// outcome must be known.
    private func waitForAnswer(on connection: OpaquePointer, statement: String?, cancelSent: inout Bool) throws(PostgresError) {
        while PQisBusy(connection) == 1 {
            var socket = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            let ready = poll(&socket, 1, 50)
            if ready < 0, errno != EINTR { throw abandon(connection, statement: statement) }
            if ready > 0, PQconsumeInput(connection) != 1 { throw abandon(connection, statement: statement) }
            if ready == 0, !cancelSent, isCancellable, Task.isCancelled {
                cancelSent = true
                guard let cancel = PQgetCancel(connection) else { continue }
                var message = [CChar](repeating: 0, count: 256)
                _ = PQcancel(cancel, &message, Int32(message.count))
                PQfreeCancel(cancel)
            }
        }
    }

    private func exchange(_ statements: [PostgresStatement], on connection: OpaquePointer,
                          committing: Bool) throws(PostgresError) -> [PostgresResult] {
        guard !statements.isEmpty || pendingBegin != nil || committing else { return [] }
        // Every value is checked before anything is sent, so a refused one leaves nothing half sent.
        let parameters = try statements.map { statement throws(PostgresError) in try PostgresParameters(statement.arguments) }
        if PQpipelineStatus(connection) == PQ_PIPELINE_OFF, PQenterPipelineMode(connection) != 1 {
            throw failure(on: connection, statement: statements.first?.sql)
        }
        var sent: [Sent] = []
        sent.reserveCapacity(statements.count * 2 + 1)
        if let begin = pendingBegin {
            try send(begin, on: connection)
            sent.append(.plain(begin))
            pendingBegin = nil
        }
        var preparing: [SQLStatementKey: String] = [:]
        for (statement, parameters) in zip(statements, parameters) {
            let name: String
            let key = SQLStatementKey(statement.sql)
            if let known = statementNames[key] ?? preparing[key] {
                name = known
            } else {
                statementsPrepared += 1
                name = "keycat_\(statementsPrepared)"
                guard PQsendPrepare(connection, name, PostgresPlaceholders.numbered(statement.sql), 0, nil) == 1 else {
                    throw abandon(connection, statement: statement.sql)
                }
                preparing[key] = name
                sent.append(.prepare(statement.sql, name: name))
            }
            let queued = parameters.withPointers { count, values, lengths, formats in
                PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0)
            }
            guard queued == 1 else { throw abandon(connection, statement: statement.sql) }
            sent.append(.execute(statement.sql))
        }
        if committing {
            if let commitProbe {
                try send(commitProbe, on: connection)
                sent.append(.probe(commitProbe))
            }
            try send("COMMIT", on: connection)
            sent.append(.plain("COMMIT"))
        }
        guard PQpipelineSync(connection) == 1 else { throw abandon(connection, statement: statements.last?.sql) }
        countRoundTrip(statements: sent.count - preparing.count)
        return try readAnswers(to: sent, on: connection)
    }

    /// Sends a read-only transaction's `COMMIT` without waiting for its answer: nothing the
    /// transaction read can be lost, and the next exchange on this connection (which the answer
    /// has long reached by then) reads it before its own.
    func commitWithoutWaiting() throws(PostgresError) {
        let connection = try open()
        if PQpipelineStatus(connection) == PQ_PIPELINE_OFF, PQenterPipelineMode(connection) != 1 {
            throw failure(on: connection, statement: "COMMIT")
        }
        try send("COMMIT", on: connection)
        guard PQpipelineSync(connection) == 1 else { throw abandon(connection, statement: "COMMIT") }
        countStatements(1)
        hasUnansweredCommit = true
    }

    /// Reads the answer to a `COMMIT` sent by ``commitWithoutWaiting()``, and leaves pipeline
    /// mode, so the connection is idle again.
    func readUnansweredCommit(on connection: OpaquePointer) throws(PostgresError) {
        guard hasUnansweredCommit else { return }
        hasUnansweredCommit = false
        _ = try ending { () throws(PostgresError) in try readAnswers(to: [.plain("COMMIT")], on: connection) }
    }

    /// Leaves pipeline mode, for `PQexec` (which pipeline mode refuses).
    func leavePipelineMode(on connection: OpaquePointer) throws(PostgresError) {
        try readUnansweredCommit(on: connection)
        if PQpipelineStatus(connection) != PQ_PIPELINE_OFF, PQexitPipelineMode(connection) != 1 {
            throw failure(on: connection, statement: nil)
        }
    }

    /// What one exchange sent, in order, so the answers can be matched to it.
    private enum Sent {
        case plain(String)
        case prepare(String, name: String)
        case execute(String)
        /// ``PostgresConfiguration/commitProbe``, before a `COMMIT`.
        case probe(String)

        var sql: String {
            switch self {
            case let .plain(sql), let .prepare(sql, _), let .execute(sql), let .probe(sql): sql
            }
        }
    }

    /// Commits the outermost write transaction, the ``PostgresConfiguration/commitProbe``
    /// travelling with the `COMMIT`.
    func commitWriting() throws(PostgresError) {
        let connection = try open()
        _ = try exchange([], on: connection, committing: true)
    }

    /// Reads one answer for each of `sent` and the pipeline's sync, returning the executions'
    /// results; throws the first failure once every answer has been read, so the connection is
    /// left ready for the next exchange (or for `ROLLBACK`).
    private func readAnswers(to sent: [Sent], on connection: OpaquePointer) throws(PostgresError) -> [PostgresResult] {
        var results: [PostgresResult] = []
        var firstFailure: PostgresError?
        var cancelSent = false
        for item in sent {
            try waitForAnswer(on: connection, statement: item.sql, cancelSent: &cancelSent)
            let raw = PQgetResult(connection)
            // Each query's answer ends with a null result.
            while let extra = PQgetResult(connection) { PQclear(extra) }
            guard let raw else {
                throw failure(on: connection, statement: item.sql, fallback: "the server sent no answer")
            }
            if PQresultStatus(raw) == PGRES_PIPELINE_ABORTED {
                PQclear(raw)
                continue
            }
            do {
                let result = try PostgresResult(raw, on: connection, statement: item.sql)
                switch item {
                case .plain: break
                case let .prepare(sql, name): statementNames[SQLStatementKey(sql)] = name
                case .execute: results.append(result)
                case .probe: commitProbeAnswer = result.rowCount > 0 ? result.row(0).optionalString(0) : nil
                }
            } catch {
                // A plan cached before a schema change can no longer run ("cached plan must not
                // change result type"): forget it, so the next call prepares the statement afresh.
                if error.sqlState == "0A000" { statementNames[SQLStatementKey(item.sql)] = nil }
                if firstFailure == nil { firstFailure = error }
            }
        }
        try readSync(on: connection, after: sent.last?.sql, cancelSent: &cancelSent)
        if let firstFailure { throw firstFailure }
        return results
    }

    /// Reads the `PGRES_PIPELINE_SYNC` that ends an exchange and leaves pipeline mode.
    private func readSync(on connection: OpaquePointer, after statement: String?, cancelSent: inout Bool) throws(PostgresError) {
        var nullsInARow = 0
        while true {
            try waitForAnswer(on: connection, statement: statement, cancelSent: &cancelSent)
            guard let raw = PQgetResult(connection) else {
                // A null ends a query's answer; two in a row mean nothing more is coming.
                nullsInARow += 1
                guard PQstatus(connection) == CONNECTION_OK, nullsInARow < 2 else {
                    throw abandon(connection, statement: statement)
                }
                continue
            }
            nullsInARow = 0
            let status = PQresultStatus(raw)
            PQclear(raw)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if !hasUnansweredCommit, PQexitPipelineMode(connection) != 1 { throw failure(on: connection, statement: statement) }
    }

    private func send(_ sql: String, on connection: OpaquePointer) throws(PostgresError) {
        guard PQsendQueryParams(connection, sql, 0, nil, nil, nil, nil, 0) == 1 else {
            throw abandon(connection, statement: sql)
        }
    }

    /// A send that libpq refused: the connection broke, or its state is not what this code
    /// expects. Either way it cannot be trusted with the next exchange, so it is closed.
    func abandon(_ connection: OpaquePointer, statement: String?) -> PostgresError {
        let error = failure(on: connection, statement: statement)
        close()
        return error.isConnectionLost ? error : .connectionLost(error.message, statement: statement)
    }

    func failure(on connection: OpaquePointer, statement: String?, fallback: String = "") -> PostgresError {
        var message = PostgresConnection.trimmed(PQerrorMessage(connection))
        if message.isEmpty { message = fallback.isEmpty ? "libpq refused the request" : fallback }
        if PQstatus(connection) != CONNECTION_OK { return .connectionLost(message, statement: statement) }
        return .unexpectedResponse(message, statement: statement)
    }
}
