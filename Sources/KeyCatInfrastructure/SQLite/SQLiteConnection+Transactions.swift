extension SQLiteConnection {
    /// Runs `body` in a write transaction and commits it, or rolls everything back when `body`
    /// throws.
    ///
    /// The outermost call starts with `BEGIN IMMEDIATE`, taking the write lock up front so a
    /// transaction never fails half-way for want of it (<https://sqlite.org/lang_transaction.html>).
    /// A call inside another becomes a savepoint (<https://sqlite.org/lang_savepoint.html>):
    /// its failure rolls back only its own work, and the outer transaction goes on.
    @discardableResult
    package func transaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        if transactionDepth == 0 {
            return try outermostTransaction(body)
        }
        return try savepoint(body)
    }

    private func outermostTransaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try run("BEGIN IMMEDIATE")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        let result: Result
        do {
            result = try body(self)
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        do {
            try run("COMMIT")
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        return result
    }

    private func savepoint<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        let name = "keycat_savepoint_\(transactionDepth)"
        try run("SAVEPOINT \(name)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body(self)
            try run("RELEASE \(name)")
            return result
        } catch {
            // ROLLBACK TO undoes the savepoint's work but leaves it open; RELEASE closes it.
            _ = try? run("ROLLBACK TO \(name)")
            _ = try? run("RELEASE \(name)")
            throw error
        }
    }

    /// Runs `body` inside a read transaction, so every query in it sees one snapshot.
    package func readTransaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        guard transactionDepth == 0 else { return try body(self) }
        try run("BEGIN DEFERRED")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body(self)
            try run("COMMIT")
            return result
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
    }

    private func rollbackIgnoringErrors() {
        // SQLite may already have rolled back (e.g. after SQLITE_FULL); then ROLLBACK fails
        // harmlessly with "no transaction is active".
        if isInTransaction { _ = try? run("ROLLBACK") }
    }
}
