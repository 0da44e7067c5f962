extension PostgresConnection {
    /// Runs `body` in a transaction and commits it, or rolls everything back when `body` throws.
    ///
    /// The outermost call starts with `BEGIN ISOLATION LEVEL …`. A call inside another becomes a
    /// savepoint (<https://www.postgresql.org/docs/current/sql-savepoint.html>): its failure rolls
    /// back only its own work, and the outer transaction goes on (its `isolation` is ignored).
    ///
    /// This runs `body` once; ``PostgresDatabase/write(isolation:_:)`` runs it again when the
    /// transaction loses a race.
    ///
    /// - Throws: what `body` throws, or ``PostgresError``; when the connection breaks during
    ///   `COMMIT`, one whose ``PostgresError/isCommitOutcomeUnknown`` is true.
    @discardableResult
    package func transaction<Result>(
        isolation: SQLIsolation, _ body: (PostgresConnection) throws -> Result
    ) throws -> Result {
        if transactionDepth == 0 {
            return try outermostTransaction("BEGIN ISOLATION LEVEL \(isolation.rawValue)", body)
        }
        return try savepoint(body)
    }

    /// Runs `body` inside a read-only transaction, so every query in it sees one snapshot
    /// (`REPEATABLE READ`; read-only, so it never fails for serialization).
    package func readTransaction<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        guard transactionDepth == 0 else { return try body(self) }
        return try outermostTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", readOnly: true, body)
    }

    /// `BEGIN` waits to travel with the body's first statement, and a body that ran none ends
    /// without `COMMIT`: a transaction costs the round trips of its statements and its `COMMIT`.
    /// A read-only transaction does not wait for its `COMMIT` either (it has nothing to lose):
    /// one read of several statements sent as one exchange takes one round trip.
    private func outermostTransaction<Result>(
        _ begin: String, readOnly: Bool = false, _ body: (PostgresConnection) throws -> Result
    ) throws -> Result {
        _ = try open()
        pendingBegin = begin
        transactionDepth = 1
        commitProbeAnswer = nil
        defer {
            transactionDepth = 0
            pendingBegin = nil
            transactionCommitted = false
        }
        let result: Result
        do {
            result = try body(self)
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        // The body ran no statement: the server never saw the transaction. Or its last batch
        // carried the COMMIT.
        if pendingBegin != nil || transactionCommitted { return result }
        do {
            if readOnly {
                try commitWithoutWaiting()
            } else {
                try ending { () throws(PostgresError) in try commitWriting() }
            }
        } catch {
            rollbackIgnoringErrors()
            if error.isConnectionLost { throw PostgresError.commitOutcomeUnknown(error) }
            throw error
        }
        return result
    }

    private func savepoint<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        let name = "keycat_savepoint_\(transactionDepth)"
        try run("SAVEPOINT \(name)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body(self)
            try run("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            // ROLLBACK TO undoes the savepoint's work (and clears a failed statement's error
            // state) but leaves it open; RELEASE closes it.
            ending {
                _ = try? run("ROLLBACK TO SAVEPOINT \(name)")
                _ = try? run("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    private func rollbackIgnoringErrors() {
        // A broken connection has nothing to roll back: the server ends its transaction; nor
        // has one whose BEGIN was never sent.
        if pendingBegin != nil {
            pendingBegin = nil
        } else if isOpen && isInTransaction {
            _ = try? ending { () throws(PostgresError) in try run("ROLLBACK") }
        }
    }

    /// Runs `body`, which ends a transaction (or reads how one ended), where a cancelled task
    /// does not cancel it: a `COMMIT`'s outcome must be known, and a `ROLLBACK` must finish.
    func ending<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let wasCancellable = isCancellable
        isCancellable = false
        defer { isCancellable = wasCancellable }
        return try body()
    }
}
