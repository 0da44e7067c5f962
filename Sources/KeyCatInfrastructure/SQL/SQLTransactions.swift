/// What a transaction is for: a write at an isolation, or a read of one snapshot.
package enum SQLTransactionKind: Sendable, Equatable {
    case write(SQLIsolation)
    case read
}

/// The steps in which the stores' transactions differ. ``SQLConnection``'s one implementation of
/// transactions and savepoints (``SQLConnection/transaction(isolation:_:)``,
/// ``SQLConnection/readTransaction(_:)``) calls them; nothing else should.
package protocol SQLTransactionSteps: AnyObject {
    /// How many transactions and savepoints are open: 0 outside a transaction, 1 in the
    /// outermost, more in savepoints. Set only by the transaction implementation.
    var transactionDepth: Int { get set }

    /// Starts the outermost transaction (SQLite sends its `BEGIN`; Postgres keeps it to send with
    /// the first statement).
    func beginTransaction(_ kind: SQLTransactionKind) throws

    /// Commits the outermost transaction, after its body returned.
    func commitTransaction(_ kind: SQLTransactionKind) throws

    /// Rolls back the outermost transaction after its body or its commit failed, ignoring any
    /// error of its own: the failure is what the caller hears.
    func rollbackTransaction()

    /// Runs `body`, which ends or undoes work, to its end even when the task it runs for is
    /// cancelled (only Postgres cancels statements).
    func ending<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result
}

extension SQLConnection {
    /// Runs `body` in a transaction at `isolation` and commits it, or rolls everything back when
    /// `body` throws.
    ///
    /// A call inside another becomes a savepoint (<https://sqlite.org/lang_savepoint.html>,
    /// <https://www.postgresql.org/docs/current/sql-savepoint.html>): its failure, a failed
    /// statement's included, rolls back only its own work, and the outer transaction goes on at
    /// its own isolation. On SQLite every isolation is `BEGIN IMMEDIATE`, whose one writer is
    /// stricter than any.
    ///
    /// This runs `body` once; ``PostgresDatabase/write(isolation:_:)`` runs it again when the
    /// transaction loses a race.
    ///
    /// - Throws: what `body` throws, or the store's error; on Postgres, when the connection breaks
    ///   during `COMMIT`, one whose ``PostgresError/isCommitOutcomeUnknown`` is true.
    @discardableResult
    package func transaction<Result>(isolation: SQLIsolation, _ body: (Self) throws -> Result) throws -> Result {
        if transactionDepth == 0 {
            return try outermostTransaction(.write(isolation), body)
        }
        return try savepoint(body)
    }

    /// Runs `body` in a read transaction, so every query in it sees one snapshot; inside another
    /// transaction, in that one.
    package func readTransaction<Result>(_ body: (Self) throws -> Result) throws -> Result {
        guard transactionDepth == 0 else { return try body(self) }
        return try outermostTransaction(.read, body)
    }

    private func outermostTransaction<Result>(_ kind: SQLTransactionKind, _ body: (Self) throws -> Result) throws -> Result {
        try beginTransaction(kind)
        transactionDepth = 1
        defer { transactionDepth = 0 }
        let result: Result
        do {
            result = try body(self)
        } catch {
            rollbackTransaction()
            throw error
        }
        do {
            try commitTransaction(kind)
        } catch {
            rollbackTransaction()
            throw error
        }
        return result
    }

    private func savepoint<Result>(_ body: (Self) throws -> Result) throws -> Result {
        let name = "keycat_savepoint_\(transactionDepth)"
        try run("SAVEPOINT \(name)", [])
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body(self)
            try run("RELEASE SAVEPOINT \(name)", [])
            return result
        } catch {
            // ROLLBACK TO undoes the savepoint's work (and on Postgres clears a failed
            // statement's error state) but leaves it open; RELEASE closes it.
            ending {
                _ = try? run("ROLLBACK TO SAVEPOINT \(name)", [])
                _ = try? run("RELEASE SAVEPOINT \(name)", [])
            }
            throw error
        }
    }
}
