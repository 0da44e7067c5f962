extension PostgresConnection: SQLTransactionSteps {
    /// `BEGIN ISOLATION LEVEL …` (for a read `REPEATABLE READ READ ONLY`: one snapshot, and never a
    /// serialization failure) waits to travel with the body's first statement, and a body that
    /// ran none ends without `COMMIT`: a transaction costs the round trips of its statements and
    /// its `COMMIT`.
    package func beginTransaction(_ kind: SQLTransactionKind) throws {
        _ = try open()
        switch kind {
        case let .write(isolation): pendingBegin = "BEGIN ISOLATION LEVEL \(isolation.rawValue)"
        case .read: pendingBegin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        }
        commitProbeAnswer = nil
        announcesCommit = false
    }

    /// Nothing to send when the body ran no statement (the server never saw the transaction) or
    /// its last batch carried the `COMMIT`. A read does not wait for its `COMMIT` (it has nothing
    /// to lose): one read of several statements sent as one exchange takes one round trip. A
    /// write's `COMMIT` is never cancelled, and a connection lost during it is a commit whose
    /// outcome is unknown.
    package func commitTransaction(_ kind: SQLTransactionKind) throws {
        defer { endTransaction() }
        if pendingBegin != nil || transactionCommitted { return }
        do {
            if kind == .read {
                try commitWithoutWaiting()
            } else {
                try ending { () throws(PostgresError) in try commitWriting() }
            }
        } catch {
            if error.isConnectionLost { throw PostgresError.commitOutcomeUnknown(error) }
            throw error
        }
    }

    /// A broken connection has nothing to roll back: the server ends its transaction; nor has
    /// one whose `BEGIN` was never sent.
    package func rollbackTransaction() {
        defer { endTransaction() }
        if pendingBegin == nil, isOpen, isInTransaction {
            _ = try? ending { () throws(PostgresError) in try run("ROLLBACK") }
        }
    }

    private func endTransaction() {
        pendingBegin = nil
        transactionCommitted = false
    }

    /// Runs `body`, which ends a transaction (or reads how one ended), where a cancelled task
    /// does not cancel it: a `COMMIT`'s outcome must be known, and a `ROLLBACK` must finish.
    package func ending<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let wasCancellable = isCancellable
        isCancellable = false
        defer { isCancellable = wasCancellable }
        return try body()
    }
}
